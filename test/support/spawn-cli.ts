import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs the real CLI as a user would run the built one: the run's bundle of server/cli/main.ts (see
 * cli-bundle-global-setup.ts), or the source under tsx where no run provides one; or, given `entry`,
 * an already built entry point (see stageCliBundle).
 */
export function spawnCli(args: string[], options: SpawnOptionsWithoutStdio & { entry?: string } = {}): CliRun {
  const { entry = runBundle(), ...spawnOptions } = options;
  const command = entry === undefined ? ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'main.ts')] : [entry];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: PROJECT_ROOT,
    ...spawnOptions,
    env: { ...process.env, ...spawnOptions.env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for `serve` to print where it listens. */
export async function waitForServing(run: CliRun, timeoutMs = 20_000): Promise<{ sidecarUrl: URL; apiUrl: URL }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const sidecar = /sidecar (http:\/\/[^\s]+)/.exec(run.stdout());
    const api = /health:\s+(http:\/\/[^\s]+)\/healthz/.exec(run.stdout());
    if (sidecar && api) return { sidecarUrl: new URL(sidecar[1]!), apiUrl: new URL(api[1]!) };
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the CLI did not start serving:\n${run.stdout()}\n${run.stderr()}`);
}

/** Waits for `dashboard` to print where it listens. */
export async function waitForDashboard(run: CliRun, timeoutMs = 20_000): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const api = /health:\s+(http:\/\/[^\s]+)\/healthz/.exec(run.stdout());
    if (api && run.stdout().startsWith('mcp-sunset dashboard')) return new URL(api[1]!);
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the dashboard did not start:\n${run.stdout()}\n${run.stderr()}`);
}

function runBundle(): string | undefined {
  try {
    return inject('cliEntry');
  } catch {
    // Outside a vitest worker (a script importing this helper) there is nothing injected.
    return undefined;
  }
}
