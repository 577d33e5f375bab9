import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** What test/peers/python/client.py printed: a session's tool names, sum and version, or its error. */
export type PythonClientOutcome = { toolNames: string[]; sum: string; protocolVersion: string } | { error: string };

const SCRIPT = join(PROJECT_ROOT, 'test', 'peers', 'python', 'client.py');

/**
 * Runs the Python SDK's own client against `url`: `legacy` (the initialize handshake), `2026-07-28`
 * (modern, no handshake) or `auto` (server/discover, then initialize if that fails).
 */
export function runPythonClient(python: string, url: URL, mode: 'legacy' | 'auto' | '2026-07-28'): Promise<PythonClientOutcome> {
  return new Promise((resolve, reject) => {
    execFile(python, [SCRIPT, url.href, mode], { timeout: 50_000 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as PythonClientOutcome);
      } catch {
        reject(new Error(`the Python client printed no outcome (${error?.message ?? 'exit 0'}): ${stderr.trim()}`));
      }
    });
  });
}
