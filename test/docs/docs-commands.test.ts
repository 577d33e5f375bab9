import { describe, expect, test } from 'vitest';
import { cliUses, shellWords } from './cli-examples.js';
import { commandsIn, helpHasFlag, helpOf } from './cli-help.js';
import { codeBlocks, docsFiles, readDoc } from './markdown.js';

describe('reading command lines out of code blocks', () => {
  test('words split as a shell splits simple quoting', () => {
    expect(shellWords(`probe a 'local=stdio:npx -y s --flag "a b"' --json "x \\"y\\"" z`)).toEqual(['probe', 'a', 'local=stdio:npx -y s --flag "a b"', '--json', 'x "y"', 'z']);
  });

  test('finds each form of command line, and only its own flags', () => {
    const block = (lang: string, text: string) => ({ lang, text, line: 1 });
    expect(cliUses(block('sh', 'X=1 mcp-sunset serve --upstream u --db "$D" # --not-this\nnode dist/server/cli/main.js report --json | jq .'))).toEqual([
      { command: 'serve', flags: ['--upstream', '--db'], text: 'X=1 mcp-sunset serve --upstream u --db "$D" # --not-this' },
      { command: 'report', flags: ['--json'], text: 'node dist/server/cli/main.js report --json | jq .' },
    ]);
    expect(cliUses(block('sh', 'mcp-sunset wrap --bridge -- node server.js --port 1')).map((u) => u.flags)).toEqual([['--bridge']]);
    expect(cliUses(block('sh', 'docker run --rm -v mcp-sunset-data:/data \\\n  mcp-sunset:0.1.0 serve \\\n  --listen 0.0.0.0:8808')).map((u) => [u.command, u.flags])).toEqual([['serve', ['--listen']]]);
    expect(cliUses(block('sh', 'mcp-sunset probe [--json] [--collision prefix|reject]\n                 [--allow-http-sse] <target>...')).map((u) => u.flags)).toEqual([['--json', '--collision', '--allow-http-sse']]);
    expect(cliUses(block('json', '{ "command": "mcp-sunset", "args": ["wrap", "--db", "x", "--", "node", "--inspect"] }')).map((u) => [u.command, u.flags])).toEqual([['wrap', ['--db']]]);
    expect(cliUses(block('', '*mcp-sunset weekly digest*\n"id": "mcp-sunset-discover-1"'))).toEqual([]);
  });

  test('a flag is in a help when an option line starts with it', () => {
    const help = 'Options:\n  --db <path|url>   SQLite database file\n  --no-alerts       do not evaluate\n                    alert rules (--hidden)\n  -h, --help        display help';
    expect(['--db', '--no-alerts', '--help'].map((flag) => helpHasFlag(help, flag))).toEqual([true, true, true]);
    expect(['--d', '--dbx', '--db-path', '--alerts', '--hidden'].map((flag) => helpHasFlag(help, flag))).toEqual([false, false, false, false, false]);
  });
});

describe('the command lines in README.md and docs/', () => {
  const uses = docsFiles().flatMap((file) =>
    codeBlocks(readDoc(file)).flatMap((block) => cliUses(block).map((use) => ({ ...use, where: `${file}:${block.line}` }))),
  );

  test('there are command lines to check', () => {
    expect(uses.length).toBeGreaterThan(15);
    expect(new Set(uses.map((u) => u.command)).size).toBeGreaterThan(5);
  });

  test('use only commands the CLI has, and flags their --help lists', async () => {
    const commands = commandsIn(await helpOf());
    await Promise.all(commands.map((command) => helpOf(command)));
    const problems: string[] = [];
    for (const use of uses) {
      if (!commands.includes(use.command)) {
        problems.push(`${use.where}: mcp-sunset ${use.command}: no such command (${use.text})`);
        continue;
      }
      const help = await helpOf(use.command);
      for (const flag of use.flags) if (!helpHasFlag(help, flag)) problems.push(`${use.where}: mcp-sunset ${use.command} ${flag}: not in its --help (${use.text})`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
