import { describe, expect, test } from 'vitest';
import { startDemoServer } from '../../server/demo/demo-server.js';
import { captureV1ConnectError, runV1CountWithProgress, runV1HttpSession, runV1SseSession, runV2CountWithProgress, runV2Session } from '../peers/clients.js';

const TOOL_NAMES = ['add', 'count', 'echo'];
const STEP_DELAY_MS = 300;

describe('startDemoServer', () => {
  test('serves legacy Streamable HTTP, HTTP+SSE and modern clients from one process', async () => {
    const server = await startDemoServer();
    try {
      expect(server.url.href).toBe(`${server.origin}/mcp`);
      const sseUrl = new URL('/sse', server.origin);
      const summaries = {
        v1Http: await runV1HttpSession(server.url),
        v1Sse: await runV1SseSession(sseUrl),
        v2Pin: await runV2Session(server.url, 'pin'),
        v2Auto: await runV2Session(server.url, 'auto'),
      };
      expect(summaries).toEqual({
        v1Http: { toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=legacy', sum: '3' },
        v1Sse: { toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=legacy', sum: '3' },
        v2Pin: { toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=modern', sum: '3' },
        v2Auto: { toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=modern', sum: '3' },
      });
    } finally {
      await server.close();
    }
  });

  test('streams count progress ahead of the result in both eras', async () => {
    const server = await startDemoServer();
    try {
      for (const runCount of [runV1CountWithProgress, runV2CountWithProgress]) {
        const seen: number[] = [];
        const outcome = await runCount(server.url, 3, STEP_DELAY_MS, (_progress, atMs) => seen.push(atMs));
        expect(outcome.text).toBe('counted 3');
        expect(seen).toHaveLength(3);
        // Streamed, not buffered: the first step is seen at least one step before the result,
        // of the two steps' delay the tool waits after it (a wide margin for a loaded machine).
        expect(outcome.atMs - (seen[0] ?? Infinity)).toBeGreaterThanOrEqual(STEP_DELAY_MS);
      }
    } finally {
      await server.close();
    }
  });

  test('is dual-era: a v1 client is not refused', async () => {
    const server = await startDemoServer();
    try {
      await expect(captureV1ConnectError(server.url)).rejects.toThrow(/connected/);
    } finally {
      await server.close();
    }
  });

  test('close() returns while an HTTP+SSE client still holds its stream open', async () => {
    const server = await startDemoServer();
    const stream = await fetch(new URL('/sse', server.origin), { headers: { accept: 'text/event-stream' } });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await server.close();
    await expect(stream.text()).resolves.toContain('event: endpoint');
  });
});
