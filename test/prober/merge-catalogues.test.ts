import { describe, expect, test } from 'vitest';
import { collectTools, DEFAULT_TOOL_PAGE_LIMITS, type ToolInfo } from '../../server/prober/catalogue/collect-tools.js';
import { mergeCatalogues, type PeerTools } from '../../server/prober/catalogue/merge-catalogues.js';
import type { ToolsPage } from '../../server/prober/catalogue/read-tools-page.js';

const tools = (...names: string[]): ToolInfo[] => names.map((name) => ({ name, description: null }));
const peer = (name: string, ...names: string[]): PeerTools => ({ peer: name, tools: tools(...names) });

describe('mergeCatalogues', () => {
  test('without collisions every tool keeps its name, sorted, whatever order the peers came in', () => {
    const a = mergeCatalogues([peer('zeta', 'b', 'a'), peer('alpha', 'c')], 'prefix');
    const b = mergeCatalogues([peer('alpha', 'c'), peer('zeta', 'a', 'b')], 'prefix');
    expect(a).toEqual(b);
    expect(a.ok && a.tools.map((t) => [t.name, t.peer, t.tool])).toEqual([['a', 'zeta', 'a'], ['b', 'zeta', 'b'], ['c', 'alpha', 'c']]);
  });

  test('prefix: every colliding tool becomes <peer>/<tool> and none stays bare; the others keep their names', () => {
    const result = mergeCatalogues([peer('docs', 'echo', 'search'), peer('math', 'add', 'echo'), peer('misc', 'echo')], 'prefix');
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(['add', 'docs/echo', 'math/echo', 'misc/echo', 'search']);
  });

  test('reject: an error naming both peers and the tool, and no catalogue', () => {
    const result = mergeCatalogues([peer('b', 'echo'), peer('a', 'echo', 'x')], 'reject');
    expect(result).toMatchObject({ ok: false, policy: 'reject', collisions: [{ name: 'echo', claimants: [{ peer: 'a', tool: 'echo' }, { peer: 'b', tool: 'echo' }] }] });
    expect(!result.ok && result.error).toBe('tool "echo" is offered by both peer "a" and peer "b" (collision policy "reject")');
  });

  test('collisions are checked again after prefixing: nothing is overwritten', () => {
    const result = mergeCatalogues([peer('a', 'c'), peer('b', 'c'), peer('x', 'a/c')], 'prefix');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe('after prefixing, the name "a/c" would stand for both peer "a"\'s tool "c" and peer "x"\'s tool "a/c"');
  });

  test('a peer repeating a name, a "/" in a peer name and duplicate peer names are refused', () => {
    expect(mergeCatalogues([peer('a', 'x', 'x')], 'prefix')).toMatchObject({ ok: false, error: 'peer "a" lists a tool name more than once' });
    expect(mergeCatalogues([peer('a/b', 'x')], 'prefix')).toMatchObject({ ok: false });
    expect(mergeCatalogues([peer('a', 'x'), peer('a', 'y')], 'prefix')).toMatchObject({ ok: false, error: 'two peers are named "a"' });
  });
});

describe('collectTools', () => {
  const pages = (list: ToolsPage[]) => {
    const cursors: (string | null)[] = [];
    return {
      cursors,
      fetch: async (cursor: string | null) => {
        cursors.push(cursor);
        return list[cursors.length - 1] ?? { ok: false, code: 'none', detail: 'no more pages', sessionGone: false };
      },
    };
  };
  const page = (names: string[], nextCursor: string | null = null): ToolsPage => ({ ok: true, tools: names.map((name) => ({ name })), nextCursor });

  test('follows nextCursor to the end and sorts', async () => {
    const source = pages([page(['b'], 'p2'), page(['c', 'a'], 'p3'), page([])]);
    expect(await collectTools(source.fetch, DEFAULT_TOOL_PAGE_LIMITS)).toEqual({ ok: true, tools: tools('a', 'b', 'c'), pages: 3, truncated: null });
    expect(source.cursors).toEqual([null, 'p2', 'p3']);
  });

  test('stops on a repeated cursor', async () => {
    const source = pages([page(['a'], 'p2'), page(['b'], 'p2'), page(['c'])]);
    expect(await collectTools(source.fetch, DEFAULT_TOOL_PAGE_LIMITS)).toMatchObject({ ok: true, tools: tools('a', 'b'), truncated: 'repeated-cursor' });
    expect(source.cursors).toEqual([null, 'p2']);
  });

  test('caps pages and items', async () => {
    const endless = async (cursor: string | null): Promise<ToolsPage> => page([`t${cursor ?? 0}`], String(Number(cursor ?? 0) + 1));
    expect(await collectTools(endless, { ...DEFAULT_TOOL_PAGE_LIMITS, maxPages: 3 })).toMatchObject({ ok: true, pages: 3, truncated: 'max-pages' });
    expect(await collectTools(pages([page(['a', 'b', 'c'])]).fetch, { ...DEFAULT_TOOL_PAGE_LIMITS, maxItems: 2 })).toMatchObject({ ok: true, tools: tools('a', 'b'), truncated: 'max-items' });
  });

  test('a name repeated within one peer, even across pages, rejects the peer', async () => {
    expect(await collectTools(pages([page(['a'], 'p2'), page(['a'])]).fetch, DEFAULT_TOOL_PAGE_LIMITS)).toMatchObject({ ok: false, code: 'duplicate-tool-name' });
  });

  test('a failing page fails the list', async () => {
    expect(await collectTools(pages([page(['a'], 'p2')]).fetch, DEFAULT_TOOL_PAGE_LIMITS)).toMatchObject({ ok: false, code: 'none' });
  });
});
