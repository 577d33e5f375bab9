import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/load-config.js';

/** Reads a JSON config file; a missing or malformed file is a ConfigError naming it. */
export function readConfigFile(path: string | undefined): Record<string, unknown> | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`config file ${path}: not a JSON object (${(error as Error).message})`);
  }
}
