import { describe, expect, test } from 'vitest';
import { createEraCache } from '../../server/prober/attempt/era-cache.js';
import { computePeerKey, describeTarget, type PeerConfig } from '../../server/prober/targets/peer-config.js';
import { namePeers, parseTarget } from '../../server/prober/targets/parse-target.js';
import { splitCommandLine } from '../../server/prober/targets/split-command-line.js';

describe('splitCommandLine', () => {
  const cases: [string, unknown][] = [
    ['node server.js --port 1', { command: 'node', args: ['server.js', '--port', '1'], env: {} }],
    [`node 'a b' "c \\"d\\"" e\\ f`, { command: 'node', args: ['a b', 'c "d"', 'e f'], env: {} }],
    [`npx -y "@scope/pkg"'@1.0'`, { command: 'npx', args: ['-y', '@scope/pkg@1.0'], env: {} }],
    [`DEBUG=1 TOKEN='x y' node s.js`, { command: 'node', args: ['s.js'], env: { DEBUG: '1', TOKEN: 'x y' } }],
    [`sh -c 'echo $HOME | cat; ls *'`, { command: 'sh', args: ['-c', 'echo $HOME | cat; ls *'], env: {} }],
    [`node ''`, { command: 'node', args: [''], env: {} }],
  ];
  test.each(cases)('%s', (line, expected) => {
    expect(splitCommandLine(line)).toEqual({ ok: true, ...(expected as object) });
  });

  test('refuses what it cannot split', () => {
    expect(splitCommandLine(`node 'open`)).toEqual({ ok: false, error: "unterminated ' quote" });
    expect(splitCommandLine('node \\')).toMatchObject({ ok: false });
    expect(splitCommandLine('  ')).toEqual({ ok: false, error: 'no command to run' });
  });

  test('describeTarget writes a command line that splits back to the same words', () => {
    const target = { kind: 'stdio' as const, command: 'node', args: ['a b', "it's", ''], env: { K: 'v w' } };
    const line = describeTarget(target).slice('stdio:'.length);
    expect(splitCommandLine(line)).toEqual({ ok: true, command: 'node', args: ['a b', "it's", ''], env: { K: 'v w' } });
  });
});

describe('parseTarget and namePeers', () => {
  test('reads URLs, stdio command lines and name=<target>', () => {
    expect(parseTarget('https://example.com/mcp?x=1')).toEqual({ ok: true, name: undefined, target: { kind: 'http', url: 'https://example.com/mcp?x=1' } });
    expect(parseTarget('docs=http://127.0.0.1:3000/mcp')).toMatchObject({ ok: true, name: 'docs' });
    expect(parseTarget('local=stdio:node server.js')).toEqual({ ok: true, name: 'local', target: { kind: 'stdio', command: 'node', args: ['server.js'] } });
    expect(parseTarget('stdio:A=1 node x')).toEqual({ ok: true, name: undefined, target: { kind: 'stdio', command: 'node', args: ['x'], env: { A: '1' } } });
  });

  test('refuses other schemes, slashes and wildcards in names, and wildcard hosts', () => {
    expect(parseTarget('ftp://example.com')).toMatchObject({ ok: false });
    expect(parseTarget('just-words')).toMatchObject({ ok: false });
    expect(parseTarget('a/b=http://x')).toMatchObject({ ok: false, error: expect.stringContaining('must not contain "/"') });
    expect(parseTarget('*=http://x')).toMatchObject({ ok: false, error: expect.stringContaining('wildcard') });
    expect(parseTarget('http://*.example.com/mcp')).toMatchObject({ ok: false, error: expect.stringContaining('wildcard') });
  });

  test('names unnamed targets after host or command, unique by position', () => {
    const parsed = ['http://127.0.0.1:3000/a', 'http://127.0.0.1:3000/b', 'stdio:/usr/bin/node x', 'node=http://h/'].map((t) => {
      const r = parseTarget(t);
      if (!r.ok) throw new Error(r.error);
      return r;
    });
    expect(namePeers(parsed)).toEqual({ ok: true, names: ['127.0.0.1:3000', '127.0.0.1:3000-2', 'node-2', 'node'] });
  });
});

describe('the era cache', () => {
  const http = (url: string, extra: Partial<PeerConfig> = {}): PeerConfig => ({ name: 'p', target: { kind: 'http', url }, ...extra });
  const stdio = (args: string[], env?: Record<string, string>): PeerConfig => ({ name: 's', target: { kind: 'stdio', command: 'node', args, env } });
  const entry = { era: 'legacy' as const, version: '2025-11-25', transport: 'streamable-http' as const, hasTools: true, at: 0 };

  test('keys on the full URL, the full command and the policy, never on a token', () => {
    expect(computePeerKey(http('http://h/a'))).not.toBe(computePeerKey(http('http://h/b')));
    expect(computePeerKey(http('http://h/a'))).not.toBe(computePeerKey(http('http://h/a', { allowLegacy: true })));
    expect(computePeerKey(stdio(['x']))).not.toBe(computePeerKey(stdio(['x'], { A: '1' })));
    expect(computePeerKey({ name: 'p', target: { kind: 'http', url: 'http://h/a', headers: { authorization: 'Bearer 1' } } })).toBe(computePeerKey(http('http://h/a')));
  });

  test('a configuration change under the same name drops the entry', () => {
    const cache = createEraCache();
    cache.remember(http('http://h/a'), entry);
    expect(cache.lookup(http('http://h/a'))).toMatchObject({ era: 'legacy' });
    expect(cache.lookup(http('http://h/b'))).toBeUndefined();
    expect(cache.lookup(http('http://h/a'))).toBeUndefined();
    expect(cache.drops).toEqual([{ peer: 'p', reason: 'config-change' }]);
  });

  test('a fresh stdio process drops a legacy era and keeps a modern one only as a hint', () => {
    const cache = createEraCache();
    cache.remember(stdio(['x']), { ...entry, transport: 'stdio' });
    expect(cache.noteSpawn(stdio(['x']))).toBeUndefined();
    expect(cache.drops).toEqual([{ peer: 's', reason: 'restart' }]);
    cache.remember(stdio(['x']), { ...entry, era: 'modern', version: '2026-07-28', transport: 'stdio' });
    expect(cache.noteSpawn(stdio(['x']))).toMatchObject({ era: 'modern' });
  });
});
