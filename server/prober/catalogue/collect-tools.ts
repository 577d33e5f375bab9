/**
 * Follows `tools/list` pagination under caps and checks one peer's list. The requests come in
 * through `fetchPage`; the rules are here: stop on a repeated cursor, cap pages and items, and
 * reject a peer whose own list repeats a name (no "first wins").
 */
import { isRecord } from '../wire/probe-observation.js';
import type { ToolsPage } from './read-tools-page.js';

export interface ToolPageLimits {
  maxPages: number;
  maxItems: number;
  maxCursorLength: number;
}

export const DEFAULT_TOOL_PAGE_LIMITS: Readonly<ToolPageLimits> = { maxPages: 50, maxItems: 5000, maxCursorLength: 4096 };

export interface ToolInfo {
  name: string;
  description: string | null;
}

export type ToolListTruncation = 'max-pages' | 'max-items' | 'repeated-cursor' | 'cursor-too-long';

export type ToolListing =
  | { ok: true; tools: ToolInfo[]; pages: number; truncated: ToolListTruncation | null }
  | { ok: false; code: string; detail: string; sessionGone: boolean };

/** Code-unit order, the same on every machine (no locale). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function readTool(value: unknown): ToolInfo | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') return undefined;
  return { name: value.name, description: typeof value.description === 'string' ? value.description : null };
}

export async function collectTools(fetchPage: (cursor: string | null) => Promise<ToolsPage>, limits: ToolPageLimits): Promise<ToolListing> {
  const tools: ToolInfo[] = [];
  const names = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | null = null;
  let truncated: ToolListTruncation | null = null;
  let pages = 0;
  for (;;) {
    if (pages >= limits.maxPages) {
      truncated = 'max-pages';
      break;
    }
    const page = await fetchPage(cursor);
    pages += 1;
    if (!page.ok) return page;
    for (const [index, raw] of page.tools.entries()) {
      const tool = readTool(raw);
      if (tool === undefined) return { ok: false, code: 'invalid-tool', detail: `tool ${index} of page ${pages} has no name`, sessionGone: false };
      if (names.has(tool.name)) return { ok: false, code: 'duplicate-tool-name', detail: `the peer lists the tool "${tool.name}" more than once`, sessionGone: false };
      if (tools.length >= limits.maxItems) {
        truncated = 'max-items';
        break;
      }
      names.add(tool.name);
      tools.push(tool);
    }
    if (truncated !== null || page.nextCursor === null) break;
    if (page.nextCursor.length > limits.maxCursorLength) {
      truncated = 'cursor-too-long';
      break;
    }
    if (cursors.has(page.nextCursor)) {
      truncated = 'repeated-cursor';
      break;
    }
    cursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }
  return { ok: true, tools: tools.sort((a, b) => compareNames(a.name, b.name)), pages, truncated };
}
