import type { TestProject } from 'vitest/node';
import { preparePythonVenv } from './python-venv.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The interop suite's Python, in a virtual environment holding the pinned MCP SDK. */
    interopPython: string;
  }
}

/**
 * Makes (or reuses) the interop suite's Python environment. When it cannot, the run stops with one
 * line saying why, rather than a stack trace from a peer that failed to start.
 */
export default function setup(project: TestProject): void {
  const venv = preparePythonVenv();
  if (!venv.ok) {
    console.error(`interop suite cannot run: ${venv.reason}`);
    process.exit(1);
  }
  project.provide('interopPython', venv.python);
}
