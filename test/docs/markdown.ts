/**
 * Just enough Markdown for the docs' tests: fenced blocks, headings and their GitHub anchors, links,
 * code spans and tables, each with the line it starts on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** README.md and every Markdown file in docs/, as paths from the project root. */
export function docsFiles(): string[] {
  const docs = readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function readDoc(path: string): string {
  return readFileSync(join(PROJECT_ROOT, path), 'utf8');
}

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/;

export interface CodeBlock {
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { fence: string; lang: string; line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, i) => {
    const fence = FENCE.exec(text);
    if (open === undefined) {
      if (fence !== null) open = { fence: fence[1]!, lang: fence[2]!, line: i + 1, lines: [] };
    } else if (fence !== null && fence[1]!.startsWith(open.fence) && fence[2] === '') {
      blocks.push({ lang: open.lang, text: open.lines.join('\n'), line: open.line });
      open = undefined;
    } else open.lines.push(text);
  });
  return blocks;
}

/** The document with every fenced block's lines emptied, so line numbers still count. */
export function prose(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((text) => {
      const match = FENCE.exec(text);
      if (fence === undefined) {
        if (match !== null) fence = match[1]!;
        return fence === undefined ? text : '';
      }
      if (match !== null && match[1]!.startsWith(fence) && match[2] === '') fence = undefined;
      return '';
    })
    .join('\n');
}

/** The contents of the code spans of a piece of text. */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2]!.trim());
}

/**
 * The anchor GitHub gives a heading: its text as rendered (link and image text kept, markup and HTML
 * dropped), lower-cased, every character but letters, marks, digits, `_`, `-` and spaces dropped,
 * spaces turned into `-`.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document has: its headings' slugs (a repeated one numbered -1, -2… as GitHub does) and HTML ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = prose(markdown);
  for (const line of text.split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading === null) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const id of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(id[1]!);
  return out;
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images, and reference definitions, outside code; their targets as written. */
export function links(markdown: string): Link[] {
  // Code spans become blanks of the same length (newlines kept), so what they hold is never a link.
  const text = prose(markdown).replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const out: Link[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line: lineAt(m.index) });
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)) out.push({ target: m[1]!, line: lineAt(m.index) });
  return out;
}

export interface TableCell {
  /** The column's header, lower-cased. */
  column: string;
  text: string;
  line: number;
}

/** The body cells of every table, each with its column's header. */
export function tableCells(markdown: string): TableCell[] {
  const lines = prose(markdown).split('\n');
  const split = (row: string) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
  const cells: TableCell[] = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    if (!lines[i]!.trim().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) continue;
    const header = split(lines[i]!).map((name) => name.toLowerCase());
    let j = i + 2;
    for (; j < lines.length && lines[j]!.trim().startsWith('|'); j += 1) {
      split(lines[j]!).forEach((text, column) => cells.push({ column: header[column] ?? '', text, line: j + 1 }));
    }
    i = j;
  }
  return cells;
}
