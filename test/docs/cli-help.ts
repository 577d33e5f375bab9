/** The CLI's own --help, run once per command and kept, for tests that check what the docs and examples use. */
import { spawnCli } from '../support/spawn-cli.js';

const helps = new Map<string, Promise<string>>();

/** `mcp-sunset <command> --help`, or the top-level help without a command. */
export function helpOf(command?: string): Promise<string> {
  const key = command ?? '';
  let help = helps.get(key);
  if (help === undefined) {
    const run = spawnCli(command === undefined ? ['--help'] : [command, '--help']);
    help = run.exited.then((code) => {
      if (code !== 0) throw new Error(`mcp-sunset ${key} --help exited ${code}: ${run.stderr()}`);
      return run.stdout();
    });
    helps.set(key, help);
  }
  return help;
}

/** Whether a command's help lists the long option. */
export function helpHasFlag(help: string, flag: string): boolean {
  return new RegExp(`^\\s+(?:-[a-zA-Z], )?${flag}(?![\\w-])`, 'm').test(help);
}

/** The commands the top-level help lists. */
export function commandsIn(help: string): string[] {
  const section = help.slice(help.indexOf('Commands:'));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!);
}
