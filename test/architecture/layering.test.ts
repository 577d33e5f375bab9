import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  allowListRule,
  checkAllowLists,
  checkEraLiterals,
  checkLayering,
  findImportCycles,
  FOLDER_ALLOW_LISTS,
  formatViolation,
  importsOf,
  INVARIANTS,
  KNOWN_CYCLES,
  LAYER_RULES,
  serverFolderOf,
  type SourceText,
  type TargetPattern,
} from './layering-rules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = join(ROOT, 'server');

/** The file or folder a `server/…` pattern names, as it exists in the checkout (imports name `.js`, sources are `.ts`). */
function namedPath(pattern: TargetPattern): string | undefined {
  if (!pattern.startsWith('server/') || pattern === 'server/*') return undefined;
  return pattern.replace(/\.js$/, '.ts');
}

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

  test('every folder under server/ has one allow-list, and no file sits outside a folder', () => {
    const folders = readdirSync(SERVER, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect(FOLDER_ALLOW_LISTS.map((list) => list.folder).sort()).toEqual(folders);
    expect(sources.filter((s) => serverFolderOf(s.path) === '').map((s) => s.path)).toEqual([]);
  });

  test('every rule states why it exists', () => {
    for (const rule of LAYER_RULES) expect(rule.rationale.length, rule.id).toBeGreaterThan(40);
    for (const cycle of KNOWN_CYCLES) expect(cycle.rationale.length, cycle.files.join(', ')).toBeGreaterThan(40);
  });

  test('every folder and file a rule names exists', () => {
    const named = [
      ...FOLDER_ALLOW_LISTS.flatMap((list) => list.may.map(namedPath)),
      ...INVARIANTS.flatMap((rule) => [
        ...(rule.from === '*' ? [] : rule.from).map((entry) => `server/${entry}`),
        ...(rule.exceptFrom ?? []).map((entry) => `server/${entry}`),
        ...[...rule.forbid, ...(rule.allow ?? [])].map(namedPath),
      ]),
    ].filter((path): path is string => path !== undefined);
    expect(named.length).toBeGreaterThan(20);
    expect([...new Set(named)].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  test('no allow-list grants what an invariant of the design forbids', () => {
    expect(checkAllowLists()).toEqual([]);
  });

  for (const list of FOLDER_ALLOW_LISTS) {
    const rule = allowListRule(list);
    test(`${rule.id}: server/${list.folder}/ imports only itself${list.may.length > 0 ? ` and ${list.may.join(', ')}` : ''}`, () => {
      expect(violations.filter((v) => v.rule === rule.id).map(formatViolation)).toEqual([]);
    });
  }

  for (const rule of INVARIANTS) {
    const scope = rule.from === '*' ? `every folder but ${(rule.exceptFrom ?? []).join(', ')}` : rule.from.map((f) => `server/${f}${f.endsWith('.ts') ? '' : '/'}`).join(', ');
    test(`${rule.id}: ${scope} imports none of ${rule.forbid.join(', ')}${rule.allow ? ` (except ${rule.allow.join(', ')})` : ''}`, () => {
      expect(violations.filter((v) => v.rule === rule.id).map(formatViolation)).toEqual([]);
    });
  }

  const known = new Set(KNOWN_CYCLES.map((cycle) => [...cycle.files].sort().join(' ⇄ ')));
  const cycles = findImportCycles(sources).map((ring) => ring.join(' ⇄ '));

  test('no import cycles, type-only imports included, but the known ones listed with their reason', () => {
    expect(cycles.filter((ring) => !known.has(ring))).toEqual([]);
  });

  test('every known cycle is still there: one that is broken leaves KNOWN_CYCLES', () => {
    expect([...known].filter((ring) => !cycles.includes(ring))).toEqual([]);
  });

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
    {
      path: 'server/analysis/nearly-pure.ts',
      source: [
        "import { bucketStart } from '../lib/time-bucket.js';",
        "import { createLogger } from '../lib/create-logger.js';",
        "import { TheilSenRegression } from 'ml-regression-theil-sen';",
        "import { isServed } from '../protocol/served.js';",
        "import { performance } from 'node:perf_hooks';",
      ].join('\n'),
    },
    { path: 'server/lib/time-bucket.ts', source: "import { hostname } from 'node:os';\n" },
    { path: 'server/lib/create-logger.ts', source: "import { hostname } from 'node:os';\nimport { pino } from 'pino';\n" },
    { path: 'server/demo/traffic.ts', source: "const version = '2025-03-26';\n" },
    { path: 'server/cli/main.ts', source: "import { createReverseProxy } from '../sidecar/reverse-proxy.js';\nconst v = `version ${'x'} is 2025-03-26`;\n" },
    { path: 'server/store/postgres/get-plan.ts', source: "import type { PlanRecord } from '../records/plan-record.js';\nimport { withBrownouts } from '../sqlite/plan-record.js';\n" },
    { path: 'server/store/records/plan-record.ts', source: "import type { ShareBasis } from '../../protocol/work-request.js';\nimport type { plansTable } from '../sqlite/schema/plans.js';\n" },
    { path: 'server/store/store.ts', source: "import type { PlanRecord } from './records/plan-record.js';\nimport type { Db } from './sqlite/open-database.js';\n" },
    { path: 'server/views/load-plan.ts', source: "import type { PlanRecord } from '../store/records/plan-record.js';\nimport type { PlanRow } from '../store/sqlite/plan-record.js';\n" },
    { path: 'server/cli/open.ts', source: "import { openDatabase } from '../store/sqlite/open-database.js';\n" },
  ];

  test('reports every import outside a folder\'s allow-list, and every breach of an invariant, with file and line', () => {
    expect(checkLayering(fixture).map(formatViolation)).toEqual([
      "protocol-may-import: server/protocol/impure.ts:1 → 'node:fs'",
      "protocol-is-pure: server/protocol/impure.ts:1 → 'node:fs'",
      "protocol-may-import: server/protocol/impure.ts:2 → 'zod'",
      "protocol-is-pure: server/protocol/impure.ts:2 → 'zod'",
      "protocol-may-import: server/protocol/impure.ts:3 → '../store/open-database.js'",
      "protocol-is-pure: server/protocol/impure.ts:3 → '../store/open-database.js'",
      "protocol-may-import: server/protocol/impure.ts:4 → '../lib/time-bucket.js'",
      "protocol-is-pure: server/protocol/impure.ts:4 → '../lib/time-bucket.js'",
      "protocol-may-import: server/protocol/impure.ts:5 → 'path'",
      "protocol-is-pure: server/protocol/impure.ts:5 → 'path'",
      "protocol-may-import: server/protocol/impure.ts:6 → '../../migrations/meta/_journal.json'",
      "protocol-is-pure: server/protocol/impure.ts:6 → '../../migrations/meta/_journal.json'",
      "sidecar-may-import: server/sidecar/leaky.ts:1 → '../api/create-api-app.js'",
      "sidecar-stays-on-the-hot-path: server/sidecar/leaky.ts:1 → '../api/create-api-app.js'",
      "store-may-import: server/store/web.ts:1 → 'express'",
      "store-may-import: server/store/web.ts:2 → 'express/lib/router.js'",
      "config-may-import: server/config/leaf.ts:2 → '../lib/time-bucket.js'",
      "config-is-a-leaf: server/config/leaf.ts:2 → '../lib/time-bucket.js'",
      "tally-may-import: server/tally/reaches-up.ts:2 → '../cli/main.js'",
      "cli-is-the-composition-root: server/tally/reaches-up.ts:2 → '../cli/main.js'",
      "analysis-may-import: server/analysis/reads-db.ts:1 → '../store/open-database.js'",
      "analysis-is-pure: server/analysis/reads-db.ts:1 → '../store/open-database.js'",
      "analysis-may-import: server/analysis/nearly-pure.ts:2 → '../lib/create-logger.js'",
      "analysis-is-pure: server/analysis/nearly-pure.ts:2 → '../lib/create-logger.js'",
      "analysis-may-import: server/analysis/nearly-pure.ts:5 → 'node:perf_hooks'",
      "analysis-is-pure: server/analysis/nearly-pure.ts:5 → 'node:perf_hooks'",
      "analysis-is-pure: server/lib/time-bucket.ts:1 → 'node:os'",
      "postgres-dialect-stands-alone: server/store/postgres/get-plan.ts:2 → '../sqlite/plan-record.js'",
      "records-are-dialect-neutral: server/store/records/plan-record.ts:2 → '../sqlite/schema/plans.js'",
      "shared-store-code-is-neutral: server/store/store.ts:2 → './sqlite/open-database.js'",
      "store-types-come-from-records: server/views/load-plan.ts:2 → '../store/sqlite/plan-record.js'",
    ]);
  });

  test('reports allowances that widen an invariant, naming the folder and the pattern', () => {
    const widened = [
      { folder: 'sidecar', may: ['server/lib', 'server/store'], rationale: '' },
      { folder: 'analysis', may: ['node:*', 'server/lib', 'server/lib/time-bucket.js', 'package:ml-regression-theil-sen', 'package:pino'], rationale: '' },
      { folder: 'tally', may: ['server/cli'], rationale: '' },
      { folder: 'cli', may: ['server/*'], rationale: '' },
    ] satisfies { folder: string; may: TargetPattern[]; rationale: string }[];
    expect(checkAllowLists(widened)).toEqual([
      'sidecar-stays-on-the-hot-path: server/sidecar/ may import server/store',
      'analysis-is-pure: server/analysis/ may import node:*',
      'analysis-is-pure: server/analysis/ may import server/lib',
      'analysis-is-pure: server/analysis/ may import package:pino',
      'cli-is-the-composition-root: server/tally/ may import server/cli',
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

  test('finds every ring of imports, type-only and round a loop included, and a file importing itself', () => {
    const files: SourceText[] = [
      { path: 'server/views/a.ts', source: "import { b } from './b.js';\nimport { lib } from '../lib/lib.js';\n" },
      { path: 'server/views/b.ts', source: "import type { C } from '../api/c.js';\n" },
      { path: 'server/api/c.ts', source: "export type { A } from '../views/a.js';\n" },
      { path: 'server/lib/lib.ts', source: "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';\n" },
      { path: 'server/store/d.ts', source: "import { e } from './e.js';\nimport { missing } from './gone.js';\n" },
      { path: 'server/store/e.ts', source: "import { lib } from '../lib/lib.js';\n" },
      { path: 'server/tally/self.ts', source: "import type { Self } from './self.js';\n" },
      { path: 'server/cli/main.ts', source: "const views = await import('../views/a.js');\n" },
    ];
    expect(findImportCycles(files)).toEqual([['server/api/c.ts', 'server/views/a.ts', 'server/views/b.ts'], ['server/tally/self.ts']]);
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
