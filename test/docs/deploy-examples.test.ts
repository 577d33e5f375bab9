import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { helpHasFlag, helpOf } from './cli-help.js';

/** Each `args:` list of a manifest: the items under it, as written. */
function argLists(yaml: string): string[][] {
  const lists: string[][] = [];
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const head = /^(\s*)args:\s*$/.exec(lines[i]!);
    if (head === null) continue;
    const items: string[] = [];
    for (let j = i + 1; j < lines.length; j += 1) {
      const item = /^(\s*)- (.*)$/.exec(lines[j]!);
      if (item === null || item[1]!.length <= head[1]!.length) break;
      items.push(item[2]!.trim().replace(/^"(.*)"$/, '$1'));
    }
    lists.push(items);
  }
  return lists;
}

/** The Dockerfile's CMD, as a list. */
function dockerCommand(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8'))![1]!;
  return JSON.parse(cmd) as string[];
}

describe('the examples in deploy/ and the Dockerfile', () => {
  const manifests = readdirSync(join(PROJECT_ROOT, 'deploy', 'kubernetes')).filter((f) => f.endsWith('.yaml'));
  const commands = [
    ...manifests.flatMap((file) => argLists(readFileSync(join(PROJECT_ROOT, 'deploy', 'kubernetes', file), 'utf8')).map((args) => ({ where: file, args }))),
    { where: 'Dockerfile', args: dockerCommand() },
  ];

  test('there are commands to check', () => {
    expect(manifests.length).toBeGreaterThan(0);
    expect(commands.length).toBeGreaterThanOrEqual(manifests.length);
  });

  test('use only commands and flags the CLI has', async () => {
    for (const { where, args } of commands) {
      const [command, ...rest] = args;
      const help = await helpOf(command!);
      for (const flag of rest.filter((a) => a.startsWith('--'))) expect(helpHasFlag(help, flag), `${where}: mcp-sunset ${command} ${flag}`).toBe(true);
    }
  }, 60_000);

  test('name only environment variables the service reads', () => {
    const read = readFileSync(join(PROJECT_ROOT, 'server', 'config', 'load-config.ts'), 'utf8');
    for (const file of manifests) {
      const names = [...readFileSync(join(PROJECT_ROOT, 'deploy', 'kubernetes', file), 'utf8').matchAll(/- name: (MCP_SUNSET_[A-Z_]+|OTEL_[A-Z_]+)/g)].map((m) => m[1]!);
      for (const name of names) expect(read.includes(name) || name.startsWith('OTEL_'), `${file}: ${name}`).toBe(true);
    }
  });
});
