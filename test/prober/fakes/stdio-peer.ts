import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PeerConfig, PeerPolicy } from '../../../server/prober/targets/peer-config.js';
import type { StdioFakeConfig, StdioScript } from './stdio-fake.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FAKE = fileURLToPath(new URL('./stdio-fake.ts', import.meta.url));

/** A peer running the scripted stdio fake. */
export function stdioFakePeer(name: string, config: StdioFakeConfig | StdioScript, policy: Partial<PeerPolicy> = {}): PeerConfig {
  const full: StdioFakeConfig = 'spawns' in config ? config : { spawns: [config] };
  return { name, target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', FAKE, JSON.stringify(full)], cwd: PROJECT_ROOT }, ...policy };
}

const counterDirs: string[] = [];

/** A fresh file the fake counts its spawns in; removeSpawnCounters() deletes them all. */
export function spawnCounterFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-fake-'));
  counterDirs.push(dir);
  return join(dir, 'spawns');
}

/** A fresh file the fake appends every line it reads to (see `wireFile`); removed with the spawn counters. */
export function wireLogFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-wire-'));
  counterDirs.push(dir);
  return join(dir, 'wire.jsonl');
}

/** The JSON messages the fake read, in order. */
export function readWire(file: string): Record<string, any>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, any>);
}

export function removeSpawnCounters(): void {
  for (const dir of counterDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A peer running a script of the real test peers with tsx. */
export function tsxPeer(name: string, script: string, args: string[] = [], policy: Partial<PeerPolicy> = {}): PeerConfig {
  const path = fileURLToPath(new URL(`../../peers/${script}`, import.meta.url));
  return { name, target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', path, ...args], cwd: PROJECT_ROOT }, ...policy };
}
