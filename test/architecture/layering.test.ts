import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  checkEraLiterals,
  checkLayering,
  formatViolation,
  importsOf,
  LAYER_RULES,
  serverFolderOf,
  type SourceText,
} from './layering-rules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = join(ROOT, 'server');

/** Folders of the planned layout that may not exist yet; a rule about them is vacuous until they do. */
const PLANNED_FOLDERS = ['analysis', 'alerts', 'prober'];

function serverSources(): SourceText[] {
  return readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => {
      const path = relative(ROOT, join(SERVER, name)).split(sep).join('/');
      return { path, source: readFileSync(join(SERVER, name), 'utf8') };
    });
}

describe('layering of server/', () => {
  const sources = serverSources();
  const violations = checkLayering(sources);

  test('there are server sources to check, the protocol folder among them', () => {
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.some((s) => s.path.startsWith('server/protocol/'))).toBe(true);
    expect(sources.flatMap((s) => importsOf(s)).length).toBeGreaterThan(100);
  });

  test('every rule states why it exists', () => {
    for (const rule of LAYER_RULES) expect(rule.rationale.length, rule.id).toBeGreaterThan(40);
  });

  test('every folder a rule names exists, or is one the design plans', () => {
    const named = LAYER_RULES.flatMap((rule) => [
      ...(rule.from === '*' ? [] : rule.from),
      ...(rule.exceptFrom ?? []),
      ...[...rule.forbid, ...(rule.allow ?? [])].filter((p) => p.startsWith('server/') && p !== 'server/*').map((p) => p.slice('server/'.length)),
    ]);
    const missing = [...new Set(named)].filter((folder) => !existsSync(join(SERVER, folder)) && !PLANNED_FOLDERS.includes(folder));
    expect(missing).toEqual([]);
  });

  for (const rule of LAYER_RULES) {
    const scope = rule.from === '*' ? `every folder but ${(rule.exceptFrom ?? []).join(', ')}` : rule.from.map((f) => `server/${f}/`).join(', ');
    test(`${rule.id}: ${scope} imports none of ${rule.forbid.join(', ')}${rule.allow ? ` (except ${rule.allow.join(', ')})` : ''}`, () => {
      expect(violations.filter((v) => v.rule === rule.id).map(formatViolation)).toEqual([]);
    });
  }

  test('era knowledge lives only in server/protocol/ (and the demo that builds raw traffic)', () => {
    expect(checkEraLiterals(sources).map(formatViolation)).toEqual([]);
  });
});

describe('the layering checker (self-check)', () => {
  const fixture: SourceText[] = [
    { path: 'server/protocol/pure.ts', source: "import type { Era } from './vocabulary.js';\nexport { HEADER } from './versions.js';\n" },
    {
      path: 'server/protocol/impure.ts',
      source: [
        "import { readFileSync } from 'node:fs';",
        "import { z } from 'zod';",
        "import type { Db } from '../store/open-database.js';",
        "export * from '../lib/time-bucket.js';",
        "const later = () => import('path');",
        "import data from '../../migrations/meta/_journal.json';",
      ].join('\n'),
    },
    { path: 'server/sidecar/leaky.ts', source: "import { createApiApp } from '../api/create-api-app.js';\nconst header = 'Mcp-Session-Id';\n" },
    { path: 'server/store/web.ts', source: "import express from 'express';\nimport 'express/lib/router.js';\nimport { sql } from 'drizzle-orm';\n" },
    {
      path: 'server/api/clean.ts',
      source: "// import { main } from '../cli/main.js';\n/* export * from '../sidecar/reverse-proxy.js'; */\nimport express from 'express';\nconst s = \"import('../cli/main.js')\";\n",
    },
    { path: 'server/config/leaf.ts', source: "import { z } from 'zod';\nimport { bucketStart } from '../lib/time-bucket.js';\nimport { other } from './load-config.js';\n" },
    { path: 'server/tally/reaches-up.ts', source: "\nconst { main } = await import('../cli/main.js');\n" },
    { path: 'server/analysis/reads-db.ts', source: "import type { Db } from '../store/open-database.js';\n" },
    { path: 'server/demo/traffic.ts', source: "const version = '2025-03-26';\n" },
    { path: 'server/cli/main.ts', source: "import { createReverseProxy } from '../sidecar/reverse-proxy.js';\nconst v = `version ${'x'} is 2025-03-26`;\n" },
  ];

  test('reports every forbidden import of an in-memory fixture with file and line', () => {
    expect(checkLayering(fixture).map(formatViolation)).toEqual([
      "protocol-is-pure: server/protocol/impure.ts:1 → 'node:fs'",
      "protocol-is-pure: server/protocol/impure.ts:2 → 'zod'",
      "protocol-is-pure: server/protocol/impure.ts:3 → '../store/open-database.js'",
      "protocol-is-pure: server/protocol/impure.ts:4 → '../lib/time-bucket.js'",
      "protocol-is-pure: server/protocol/impure.ts:5 → 'path'",
      "protocol-is-pure: server/protocol/impure.ts:6 → '../../migrations/meta/_journal.json'",
      "sidecar-stays-on-the-hot-path: server/sidecar/leaky.ts:1 → '../api/create-api-app.js'",
      "store-is-storage-only: server/store/web.ts:1 → 'express'",
      "store-is-storage-only: server/store/web.ts:2 → 'express/lib/router.js'",
      "config-is-a-leaf: server/config/leaf.ts:2 → '../lib/time-bucket.js'",
      "tally-writes-only-to-a-sink: server/tally/reaches-up.ts:2 → '../cli/main.js'",
      "cli-is-the-composition-root: server/tally/reaches-up.ts:2 → '../cli/main.js'",
      "analysis-takes-rows: server/analysis/reads-db.ts:1 → '../store/open-database.js'",
    ]);
  });

  test('reports era literals outside protocol/ and demo/ with file and line, whatever their case', () => {
    expect(checkEraLiterals(fixture).map(formatViolation)).toEqual([
      "era-knowledge-lives-in-protocol: server/sidecar/leaky.ts:2 → 'Mcp-Session-Id'",
      "era-knowledge-lives-in-protocol: server/cli/main.ts:2 → ' is 2025-03-26'",
    ]);
  });

  test('finds static, side-effect, re-export, import-equals, type and dynamic imports, but not comments or strings', () => {
    const source = [
      "import a from 'a';",
      "import 'b';",
      "export { c } from 'c';",
      "export * as d from 'd';",
      "import e = require('e');",
      "type F = import('f').F;",
      "const g = await import('g');",
      "// import h from 'h';",
      "const i = \"import i from 'i'\";",
    ].join('\n');
    expect(importsOf({ path: 'server/x/y.ts', source })).toEqual([
      { specifier: 'a', line: 1 },
      { specifier: 'b', line: 2 },
      { specifier: 'c', line: 3 },
      { specifier: 'd', line: 4 },
      { specifier: 'e', line: 5 },
      { specifier: 'f', line: 6 },
      { specifier: 'g', line: 7 },
    ]);
  });

  test('a rule about a folder that does not exist yet finds nothing to report', () => {
    expect(checkLayering(fixture.filter((f) => !f.path.startsWith('server/analysis/'))).filter((v) => v.rule === 'analysis-takes-rows')).toEqual([]);
  });

  test('knows which folder of server/ a path is in', () => {
    expect([serverFolderOf('server/protocol/versions.ts'), serverFolderOf('server/cli/commands/serve.ts'), serverFolderOf('server/index.ts'), serverFolderOf('test/x.ts')]).toEqual([
      'protocol',
      'cli',
      '',
      undefined,
    ]);
  });
});
