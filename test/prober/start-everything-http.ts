import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PROJECT_ROOT } from './fakes/stdio-peer.js';

export const EVERYTHING_ENTRY = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A port nobody listens on right now (server-everything listens without a host, so on every address). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `PORT=<port> node …/server-everything/dist/index.js streamableHttp` and waits until it listens. */
export async function startEverythingHttp(): Promise<{ url: URL; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${text}`)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('listening on port')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('close', () => reject(new Error(`server-everything exited: ${text}`)));
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
