import { describe, expect, test } from 'vitest';
import type { ProbeVerdict } from '../../server/prober/verdict.js';
import { discoverUrlsOf, watchUpstreamVersions } from '../../server/prober/watch-upstream-versions.js';

const verdict = (extra: Partial<ProbeVerdict>): ProbeVerdict => ({ state: 'ready', era: 'modern', version: '2026-07-28', supportedVersions: ['2026-07-28'], evidence: { class: 'MOD', code: 'discover-result', detail: '' }, ...extra } as ProbeVerdict);

describe('watchUpstreamVersions', () => {
  test('asks the upstream path, or /mcp then / when it names none', () => {
    expect(discoverUrlsOf(new URL('http://h:3000/api/mcp')).map(String)).toEqual(['http://h:3000/api/mcp']);
    expect(discoverUrlsOf(new URL('http://h:3000')).map(String)).toEqual(['http://h:3000/mcp', 'http://h:3000/']);
  });

  test('keeps the last good answer while later checks fail, and says why they did', async () => {
    const answers: (ProbeVerdict | Error)[] = [verdict({ supportedVersions: ['2026-07-28', 'DRAFT-x'] }), new Error('connect ECONNREFUSED'), verdict({ state: 'unavailable', supportedVersions: null, version: null })];
    const asked: string[] = [];
    const watcher = watchUpstreamVersions({
      urls: [new URL('http://h/mcp')],
      everyMs: 0,
      now: () => 0,
      probe: async (peer) => {
        asked.push(peer.target.kind === 'http' ? peer.target.url : '');
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
    });
    expect(watcher.current()).toBeUndefined();
    await watcher.start();
    expect(watcher.current()).toEqual(['2026-07-28', 'DRAFT-x']);
    // A second start is the first one.
    await watcher.start();
    expect(asked).toHaveLength(1);
    await watcher.check();
    expect(watcher.current()).toEqual(['2026-07-28', 'DRAFT-x']);
    expect(watcher.health().lastError).toContain('ECONNREFUSED');
    await watcher.check();
    expect(watcher.current()).toEqual(['2026-07-28', 'DRAFT-x']);
    expect(watcher.health().lastError).toContain('unavailable');
    watcher.stop();
  });

  test('a legacy server names its negotiated version; the next URL is tried when one names nothing', async () => {
    const byUrl = new Map<string, ProbeVerdict>([
      ['http://h/mcp', verdict({ state: 'unavailable', supportedVersions: null, version: null, evidence: { class: 'AMB', code: 'http-404', detail: 'HTTP 404' } as ProbeVerdict['evidence'] })],
      ['http://h/', verdict({ era: 'legacy', supportedVersions: null, version: '2025-06-18' })],
    ]);
    const watcher = watchUpstreamVersions({ urls: discoverUrlsOf(new URL('http://h')), everyMs: 0, now: () => 5, probe: async (peer) => byUrl.get(peer.target.kind === 'http' ? peer.target.url : '')! });
    await watcher.start();
    expect(watcher.health()).toMatchObject({ versions: ['2025-06-18'], from: 'http://h/', lastError: null });
  });
});
