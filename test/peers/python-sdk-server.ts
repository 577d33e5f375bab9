import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** An HTTP request as the Python server's ASGI app received it (`path` is what Starlette routed on). */
export interface PythonHttpEntry {
  kind: 'http';
  method: string;
  path: string;
  rawPath: string;
  protocolVersionHeader: string | null;
  mcpMethodHeader: string | null;
  sessionId: string | null;
  authorization: string | null;
  contentEncoding: string | null;
  status: number | null;
}

/** A JSON-RPC message the SDK's protocol layer served, and the era of the connection it was served on. */
export interface PythonServedEntry {
  kind: 'served';
  method: string;
  id: string | number | null;
  name: string | null;
  protocolVersion: string | null;
  era: 'legacy' | 'modern';
  sessionId: string | null;
  authorization: string | null;
}

export type PythonLogEntry = PythonHttpEntry | PythonServedEntry;

export interface PythonServerOptions {
  transport?: 'streamable-http' | 'sse';
  /** Serve the legacy leg statelessly (`stateless_http=True`); the SDK default is sessions. */
  stateless?: boolean;
  /** Bearer tokens the server accepts, through the SDK's own auth middleware. */
  tokens?: string[];
}

export interface PythonServer {
  origin: string;
  /** The MCP endpoint: `/mcp` for Streamable HTTP, `/sse` for HTTP+SSE. */
  url: URL;
  /** The server's own log so far. */
  log(): PythonLogEntry[];
  http(): PythonHttpEntry[];
  served(): PythonServedEntry[];
  close(): Promise<void>;
}

const SCRIPT = join(PROJECT_ROOT, 'test', 'peers', 'python', 'server.py');

/**
 * Starts test/peers/python/server.py with `python` (the interop suite's virtual environment) on
 * an ephemeral loopback port the script binds itself, and resolves once it says it accepts requests.
 */
export async function startPythonServer(python: string, options: PythonServerOptions = {}): Promise<PythonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-python-peer-'));
  const logPath = join(dir, 'served.jsonl');
  const transport = options.transport ?? 'streamable-http';
  const args = [SCRIPT, '--log', logPath, '--transport', transport];
  if (options.stateless === true) args.push('--stateless');
  if (options.tokens !== undefined) args.push('--tokens', options.tokens.join(','));
  const child = spawn(python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const said = JSON.parse(line) as { listening?: number };
      if (said.listening !== undefined) resolve(said.listening);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the Python server exited (${code}) before it listened: ${stderr.trim()}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  const log = (): PythonLogEntry[] =>
    readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as PythonLogEntry);
  return {
    origin,
    url: new URL(transport === 'sse' ? '/sse' : '/mcp', origin),
    log,
    http: () => log().filter((entry): entry is PythonHttpEntry => entry.kind === 'http'),
    served: () => log().filter((entry): entry is PythonServedEntry => entry.kind === 'served'),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // uvicorn waits for open streams for a second (the script's graceful-shutdown bound).
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
