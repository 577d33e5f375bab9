/**
 * Splits a command line into words the way a POSIX shell does for simple quoting, and nothing
 * more. Pure. Whitespace separates words; '…' keeps everything literally; "…" keeps everything but
 * lets \" and \\ escape; outside quotes a backslash escapes the next character; pieces that touch
 * join into one word. There is no expansion: $VAR, globs, ~, |, ;, && and redirections are
 * ordinary characters. Leading NAME=value words set environment variables, as in a shell.
 */

export type SplitCommandLine =
  | { ok: true; command: string; args: string[]; env: Record<string, string> }
  | { ok: false; error: string };

function splitWords(line: string): string[] | string {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return 'a trailing backslash escapes nothing';
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) return `unterminated ${quote} quote`;
  if (inWord) words.push(word);
  return words;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

export function splitCommandLine(line: string): SplitCommandLine {
  const words = splitWords(line);
  if (typeof words === 'string') return { ok: false, error: words };
  const env: Record<string, string> = {};
  let at = 0;
  for (; at < words.length; at++) {
    const match = ASSIGNMENT.exec(words[at]!);
    if (!match) break;
    env[match[1]!] = match[2]!;
  }
  const [command, ...args] = words.slice(at);
  if (command === undefined || command === '') return { ok: false, error: 'no command to run' };
  return { ok: true, command, args, env };
}
