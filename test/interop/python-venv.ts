/**
 * The interop suite's own Python: a virtual environment under test-artifacts/ (gitignored) holding
 * the official Python MCP SDK at one pinned version, made once and reused while it still imports
 * that version. Run directly (`npx tsx test/interop/python-venv.ts`) it is the preflight .ci/run
 * uses: it prepares the environment and exits 0, or prints why it cannot on one line and exits 2.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const MCP_PYTHON_VERSION = '2.3.0';
const VENV_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'interop', `python-mcp-${MCP_PYTHON_VERSION}`);
export const CANNOT_PREPARE_EXIT_CODE = 2;

export type PythonVenv = { ok: true; python: string } | { ok: false; reason: string };

function run(command: string, args: string[], timeoutMs: number): { status: number | null; output: string; missing: boolean } {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs });
  const missing = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, missing };
}

/** The line of a tool's output that says what went wrong: pip's `ERROR:` line, else its last line. */
function causeOf(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => line.startsWith('ERROR:')) ?? lines.at(-1) ?? 'no output';
}

function installedVersion(python: string): string | undefined {
  if (!existsSync(python)) return undefined;
  const probe = run(python, ['-c', 'import importlib.metadata as m, mcp; print(m.version("mcp"))'], 60_000);
  return probe.status === 0 ? probe.output.trim() : undefined;
}

/** Makes (or reuses) the environment; never throws. */
export function preparePythonVenv(): PythonVenv {
  const python = join(VENV_DIR, 'bin', 'python');
  if (installedVersion(python) === MCP_PYTHON_VERSION) return { ok: true, python };
  const system = run('python3', ['--version'], 30_000);
  if (system.missing || system.status !== 0) return { ok: false, reason: 'python3 is not on PATH (the interop suite runs the official Python MCP SDK)' };
  rmSync(VENV_DIR, { recursive: true, force: true });
  mkdirSync(join(VENV_DIR, '..'), { recursive: true });
  const venv = run('python3', ['-m', 'venv', VENV_DIR], 120_000);
  if (venv.status !== 0 || !existsSync(python)) {
    rmSync(VENV_DIR, { recursive: true, force: true });
    return { ok: false, reason: `${system.output.trim()} cannot make a virtual environment (python3 -m venv: ${causeOf(venv.output)})` };
  }
  const pip = run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', `mcp==${MCP_PYTHON_VERSION}`], 600_000);
  if (pip.status !== 0 || installedVersion(python) !== MCP_PYTHON_VERSION) {
    rmSync(VENV_DIR, { recursive: true, force: true });
    return { ok: false, reason: `pip cannot install mcp==${MCP_PYTHON_VERSION} (${causeOf(pip.output)})` };
  }
  return { ok: true, python };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const venv = preparePythonVenv();
  if (venv.ok) {
    console.log(`mcp==${MCP_PYTHON_VERSION} ready in ${venv.python}`);
  } else {
    console.log(venv.reason);
    process.exitCode = CANNOT_PREPARE_EXIT_CODE;
  }
}
