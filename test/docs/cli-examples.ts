/**
 * The mcp-sunset command lines a fenced code block shows: shell lines (`mcp-sunset <command> …`,
 * `node dist/server/cli/main.js <command> …`, a container image `mcp-sunset:<tag> <command> …`) and
 * MCP client entries in JSON (`"command": "mcp-sunset", "args": [...]`).
 */
import type { CodeBlock } from './markdown.js';

export interface CliUse {
  command: string;
  flags: string[];
  /** The line the use was read from, as written (continuations joined). */
  text: string;
}

/** Splits a shell line into words as a POSIX shell splits simple quoting; quotes are removed. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
      started = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j += 1) word += line[j] === '\\' && j + 1 < line.length ? line[++j] : line[j];
      i = j;
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** Lines with `\` continuations joined, and usage lines continued by an indented `[` joined too. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const previous = out.at(-1);
    if (previous !== undefined && previous.endsWith('\\')) out[out.length - 1] = `${previous.slice(0, -1)} ${line.trim()}`;
    else if (previous !== undefined && /^\s+\[/.test(line) && /mcp-sunset/.test(previous)) out[out.length - 1] = `${previous} ${line.trim()}`;
    else out.push(line);
  }
  return out;
}

const ENTRY = /(?:^|[\s(=])(?:mcp-sunset(?::[\w.-]+)?|node\s+dist\/server\/cli\/main\.js)\s+(?=\S)/g;
const SEPARATORS = new Set(['|', '||', '&&', ';', '&']);

/** The flags of one command line's words: up to `--`, a separator or a comment. */
function flagsOf(words: string[]): string[] {
  const flags: string[] = [];
  for (const word of words) {
    if (word === '--' || SEPARATORS.has(word) || word.startsWith('#')) break;
    const flag = /^[[(]*(--[a-z][a-z0-9-]*)/.exec(word);
    if (flag !== null) flags.push(flag[1]!);
  }
  return flags;
}

export function cliUses(block: CodeBlock): CliUse[] {
  const uses: CliUse[] = [];
  for (const m of block.text.matchAll(/"command"\s*:\s*"mcp-sunset"\s*,\s*"args"\s*:\s*(\[[^\]]*\])/g)) {
    const [command, ...rest] = JSON.parse(m[1]!) as string[];
    uses.push({ command: command!, flags: flagsOf(rest), text: m[0] });
  }
  if (block.lang === 'json' || block.lang === 'ts' || block.lang === 'js') return uses;
  for (const line of logicalLines(block.text)) {
    for (const m of line.matchAll(ENTRY)) {
      const [command, ...rest] = shellWords(line.slice(m.index + m[0].length));
      if (command === undefined || !/^[a-z][a-z-]*$/.test(command)) continue;
      uses.push({ command, flags: flagsOf(rest), text: line.trim() });
    }
  }
  return uses;
}
