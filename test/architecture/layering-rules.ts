/**
 * The dependency rules of the server layout as data: what each folder may import (an allow-list with
 * its reason), and the design's invariants that no allow-list may widen; and a checker that applies
 * them to source text and to the allow-lists themselves.
 * The checker parses with the TypeScript compiler, so comments and strings that merely look like
 * imports are never mistaken for one, and it runs on in-memory files so it can be tested itself.
 */
import { isBuiltin } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';

export interface SourceText {
  /** Repository-relative path with forward slashes, e.g. `server/protocol/versions.ts`. */
  path: string;
  source: string;
}

/** What an import points at; `path` is the file, for imports inside `server/`. */
export type ImportTarget =
  | { kind: 'node'; name: string }
  | { kind: 'package'; name: string }
  | { kind: 'server'; folder: string; path?: string }
  | { kind: 'outside'; path: string };

/**
 * Patterns over import targets: `node:*` (any built-in), `package:*` or `package:<name>`,
 * `server/*`, `server/<folder>`, `server/<folder>/<sub>` (every file under a subfolder, such as one
 * store dialect) or `server/<folder>/<file>.js` (one file), and `outside` (a relative import leaving `server/`).
 */
export type TargetPattern = 'node:*' | 'package:*' | `package:${string}` | 'server/*' | `server/${string}` | 'outside';

/** Every import there is; a rule that forbids this and allows a few is an allow-list. */
export const ANYTHING: readonly TargetPattern[] = ['node:*', 'package:*', 'server/*', 'outside'];

export interface LayerRule {
  id: string;
  /** Folders under `server/` whose files the rule constrains, subfolders (`store/sqlite`), or single files (`lib/time-bucket.ts`); `*` for every folder. */
  from: readonly string[] | '*';
  /** Folders exempt from a `*` rule. */
  exceptFrom?: readonly string[];
  forbid: readonly TargetPattern[];
  /** Exceptions to `forbid`. */
  allow?: readonly TargetPattern[];
  rationale: string;
}

/** What the files of one folder under `server/` may import, besides each other. */
export interface FolderAllowList {
  folder: string;
  may: readonly TargetPattern[];
  rationale: string;
}

/**
 * What is pure: no runtime, no I/O, no state. `server/analysis/` may import nothing else, which makes
 * every number it answers reproducible in a unit test.
 */
export const PURE_TARGETS: readonly TargetPattern[] = ['server/protocol', 'server/lib/time-bucket.js', 'package:ml-regression-theil-sen'];

export const FOLDER_ALLOW_LISTS: readonly FolderAllowList[] = [
  {
    folder: 'protocol',
    may: [],
    rationale:
      'Era knowledge is pure and self-contained: no I/O, no runtime, no library, so the classifier is deterministic, '
      + 'cheap on the hot path, and reusable by the sidecar, the prober and the benchmarks alike.',
  },
  {
    folder: 'analysis',
    may: PURE_TARGETS,
    rationale: 'Analysis is pure maths over rows and `now`: the protocol\'s predicates, UTC bucket arithmetic and the Theil–Sen estimator, and no store, runtime or I/O library.',
  },
  {
    folder: 'policy',
    may: ['server/analysis', ...PURE_TARGETS],
    rationale:
      'The compiled retirement policy is pure data and comparisons over the plans\' dates and scopes, so the hot path can read it '
      + 'with no I/O and no await, and the same decisions can be tested, benchmarked and explained without a runtime.',
  },
  {
    folder: 'lib',
    may: ['node:*', 'package:pino', 'package:prom-client'],
    rationale: 'Shared helpers (time buckets, logger, metrics, line splitting) are used by every layer; importing a layer back would create a cycle.',
  },
  {
    folder: 'config',
    may: ['package:zod', 'package:node-cron'],
    rationale: 'Configuration is parsed once at start-up and sits at the bottom: zod for the schema and node-cron to validate schedules, and no layer, which could then not be configured by it.',
  },
  {
    folder: 'types',
    may: [],
    rationale: 'Ambient declarations for untyped packages; they describe a package and import nothing.',
  },
  {
    folder: 'tally',
    may: ['server/protocol', 'server/lib'],
    rationale: 'The tally aggregates observations and hands batches to an injected sink (store or collector); it must not know who feeds it nor where batches land.',
  },
  {
    folder: 'identity',
    may: ['node:*', 'server/config/identity-schema.js', 'package:jose', 'package:lru-cache', 'package:undici'],
    rationale:
      'Verifying OAuth access tokens is I/O with the authorization servers (metadata, keys, introspection) kept off the request path: '
      + 'jose for every JOSE operation, undici for bounded requests, and only the identity settings it is configured by; '
      + 'it knows no request, proxy or store, so the proxy, the middleware and the bridge share it.',
  },
  {
    folder: 'sidecar',
    may: ['node:*', 'server/protocol', 'server/policy', 'server/lib', 'server/identity', 'package:eventsource-parser', 'package:lru-cache', 'package:proxy-addr', 'package:iconv-lite'],
    rationale:
      'The proxy classifies with the protocol, decides with the compiled policy and records into an injected meter; it never waits on '
      + 'storage or knows the dashboard, so traffic flows even when the store fails (invariant 2). It decodes bodies with iconv-lite, '
      + 'the decoder the servers it fronts use, so it reads a charset as they do.',
  },
  {
    folder: 'bridge',
    may: ['node:*', 'server/protocol', 'server/lib', 'package:eventsource-parser'],
    rationale:
      'The legacy bridge translates between the eras at the edge and carries its sessions in signed tokens, not in a store: '
      + 'any node holding the key serves any session, and the bridge needs no layer above the protocol to do it.',
  },
  {
    folder: 'store',
    may: ['node:*', 'server/protocol', 'server/lib', 'server/tally', 'package:better-sqlite3', 'package:drizzle-orm', 'package:pg'],
    rationale: 'Queries know tables, rows and the tally\'s batches, not HTTP: the API calls the store, never the reverse, so one query file serves the API, the CLI report and the scheduler.',
  },
  {
    folder: 'views',
    may: ['server/store', 'server/analysis', 'server/policy', 'server/protocol', 'server/lib'],
    rationale:
      'Views compose store reads with analysis for both the API and the alerts, in the protocol\'s words (the share\'s basis); '
      + 'knowing either consumer, or HTTP, would tie one to the other.',
  },
  {
    folder: 'alerts',
    may: ['server/views', 'server/store', 'server/analysis', 'server/config', 'server/lib', 'package:node-cron', 'package:p-retry'],
    rationale:
      'Alert rules judge stored counts through the views and talk to webhooks; the API triggers them, never the reverse, and the proxy path must not wait on them. '
      + 'The scheduled client-name job runs beside them and fetches through a source the composition root hands it, so alerts never import the identity layer.',
  },
  {
    folder: 'prober',
    may: ['node:*', 'server/protocol', 'server/lib', 'package:eventsource-parser'],
    rationale: 'The prober is a reusable client library (mcp-sunset/prober): hosts import it without a database, a proxy or a web server.',
  },
  {
    folder: 'fleet',
    may: ['server/prober', 'server/store', 'server/protocol', 'server/lib', 'package:eventsource-parser', 'package:node-cron'],
    rationale: 'Fleet checks probe nodes on a schedule and store the results; the API triggers them through an injected function, and the proxy path never waits on them.',
  },
  {
    folder: 'api',
    may: ['node:*', 'server/views', 'server/store', 'server/analysis', 'server/alerts', 'server/protocol', 'server/lib', 'package:express', 'package:zod', 'package:prom-client'],
    rationale: 'The dashboard API validates input and answers from the store and the views; a sidecar can run on another node, so it never reaches into the proxy\'s memory.',
  },
  {
    folder: 'demo',
    may: [
      'node:*', 'server/protocol', 'server/store', 'server/tally', 'server/lib', 'server/sidecar/identify-caller.js', 'server/config/config-schema.js',
      'package:@modelcontextprotocol/client', 'package:@modelcontextprotocol/node',
      'package:@modelcontextprotocol/sdk', 'package:@modelcontextprotocol/server', 'package:drizzle-orm', 'package:zod',
    ],
    rationale:
      'The demo is a real dual-era server with real SDK clients of both eras, and it seeds history through the same tally and store as live traffic. '
      + 'It takes the caller identifier and the identity settings as given, so the seeded callers carry the keys the sidecar will compute for the live clients.',
  },
  {
    folder: 'otel',
    may: ['server/protocol', 'server/tally', 'server/config', 'server/lib', 'package:@opentelemetry/api', 'package:@opentelemetry/core', 'package:@opentelemetry/exporter-metrics-otlp-http', 'package:@opentelemetry/exporter-metrics-otlp-proto', 'package:@opentelemetry/resources', 'package:@opentelemetry/sdk-metrics'],
    rationale:
      'The OpenTelemetry export reads the counts the flusher hands it, names them in the MCP conventions through the protocol, '
      + 'and sends them with the SDK; it never sees a request, so the hot path does not pay for it, and it never reaches the store itself.',
  },
  {
    folder: 'metering',
    may: ['node:*', 'server/config', 'server/lib', 'server/otel', 'server/protocol', 'server/sidecar', 'server/identity', 'server/store', 'server/tally', 'server/views', 'server/policy'],
    rationale:
      'The counting pipeline every sidecar form shares (observation → tally → flusher → store, the spool, the Prometheus counters), '
      + 'and the retirement policy kept compiled from the store: the CLI and the in-process middleware both build them, so they sit '
      + 'below both and know no HTTP framework, API or command.',
  },
  {
    folder: 'express',
    may: ['node:*', 'server/metering', 'server/otel', 'server/sidecar', 'server/policy', 'server/config', 'server/protocol', 'server/lib'],
    rationale:
      'The in-process middleware (mcp-sunset/express) meters and enforces inside the host\'s own Express app with the proxy\'s meter, '
      + 'its policy decisions and the shared counting pipeline; it speaks node:http (which Express extends) rather than importing express, and never the API or the CLI.',
  },
  {
    folder: 'cli',
    may: ['node:*', 'server/*', 'package:commander', 'package:zod'],
    rationale: 'The CLI is the composition root: it may wire every folder together, and parses its flags with commander.',
  },
];

/**
 * The one-way dependencies of the design, as rules no allow-list may widen: `protocol` and `config`
 * at the bottom, `cli` at the top, `analysis` pure, the sidecar off storage and the dashboard, the
 * prober importable alone.
 */
export const INVARIANTS: readonly LayerRule[] = [
  {
    id: 'protocol-is-pure',
    from: ['protocol'],
    forbid: ANYTHING,
    allow: ['server/protocol'],
    rationale: 'Era knowledge is pure and self-contained, so it can be imported anywhere, the hot path included, without bringing a runtime along.',
  },
  {
    id: 'analysis-is-pure',
    from: ['analysis', 'lib/time-bucket.ts'],
    forbid: ANYTHING,
    allow: ['server/analysis', ...PURE_TARGETS],
    rationale: 'Analysis takes rows and `now` and imports no node:*, no store and no I/O library; the helpers it may use are pinned pure with it.',
  },
  {
    id: 'policy-is-pure',
    from: ['policy'],
    forbid: ANYTHING,
    allow: ['server/policy', 'server/analysis', ...PURE_TARGETS],
    rationale: 'The hot path reads the compiled policy per request: it must bring no I/O, no store and no await along (invariant 8).',
  },
  {
    id: 'config-is-a-leaf',
    from: ['config'],
    forbid: ['server/*'],
    allow: ['server/config'],
    rationale: 'Configuration sits at the bottom: if it imported a layer, that layer could not be configured by it.',
  },
  {
    id: 'lib-is-a-leaf',
    from: ['lib'],
    forbid: ['server/*'],
    allow: ['server/lib'],
    rationale: 'Shared helpers are used by every layer; importing one of the layers back would create a cycle.',
  },
  {
    id: 'sidecar-stays-on-the-hot-path',
    from: ['sidecar'],
    forbid: ['server/api', 'server/store', 'server/views', 'server/alerts', 'server/cli'],
    rationale: 'The proxy must never wait on storage or know the dashboard: it records into the in-memory tally and traffic flows even when the store fails (invariant 2).',
  },
  {
    id: 'prober-is-a-client',
    from: ['prober'],
    forbid: ['server/api', 'server/sidecar', 'server/store', 'server/alerts', 'server/views', 'server/fleet', 'package:express', 'package:better-sqlite3', 'package:drizzle-orm'],
    rationale: 'The prober is a reusable client library (mcp-sunset/prober): hosts import it without a database, a proxy or a web server.',
  },
  {
    id: 'cli-is-the-composition-root',
    from: '*',
    exceptFrom: ['cli'],
    forbid: ['server/cli'],
    rationale: 'The CLI wires every part together; anything importing it would import the whole application.',
  },
  {
    id: 'postgres-dialect-stands-alone',
    from: ['store/postgres'],
    forbid: ['server/store/sqlite'],
    rationale:
      'The Postgres store is a dialect beside SQLite, not built on it: what both share (records, audit records, the served-in-scope SQL, '
      + 'the shaping of query rows into records, the values a flush writes, the declared plans\' sync decisions) sits in the store\'s neutral modules, '
      + 'so a change to one dialect\'s files never reaches the other.',
  },
  {
    id: 'sqlite-dialect-stands-alone',
    from: ['store/sqlite'],
    forbid: ['server/store/postgres'],
    rationale: 'The embedded SQLite store must open without the Postgres driver or its schema; what the dialects share lives in the store\'s neutral modules.',
  },
  {
    id: 'records-are-dialect-neutral',
    from: ['store/records'],
    forbid: ANYTHING,
    allow: ['server/store/records', 'server/protocol', 'server/lib/time-bucket.js', 'server/tally/tally-cell.js'],
    rationale:
      'The store\'s records are the types and constants both dialects and every layer above read: written out without drizzle or a dialect\'s schema, '
      + 'so importing a record (the dashboard does, through the API\'s JSON types) brings no database driver along, and neither dialect owns them.',
  },
  {
    id: 'shared-store-code-is-neutral',
    from: [
      'store/store.ts', 'store/audit-changes.ts', 'store/served-in-scope.ts', 'store/shape-traffic-series.ts', 'store/gate-columns.ts', 'store/same-plan-fields.ts',
      'store/shape-plan-records.ts', 'store/shape-alert-listings.ts', 'store/summarize-scope-callers.ts', 'store/rank-served-versions.ts',
      'store/compute-declared-plans-sync.ts', 'store/heartbeat-values.ts', 'store/sighting-values.ts', 'store/rollup-values.ts', 'store/find-migrations-folder.ts',
      'store/people-columns.ts', 'store/caller-of.ts', 'store/compute-caller-join.ts',
    ],
    forbid: ['server/store/sqlite', 'server/store/postgres'],
    rationale: 'The Store interface and the code both dialects import sit beside the dialects, not in one of them: importing a dialect from here would tie the other to it, and close a cycle with the dialect that imports it.',
  },
  {
    id: 'store-types-come-from-records',
    from: '*',
    exceptFrom: ['store', 'cli', 'demo'],
    forbid: ['server/store/sqlite', 'server/store/postgres'],
    rationale:
      'Layers above the store call the Store interface and read its types from the neutral records, whichever dialect runs; only the composition root, '
      + 'which opens the configured dialect, and the demo, which seeds an embedded SQLite database through its writers, reach into a dialect.',
  },
];

/** An allow-list as a rule the checker applies: everything forbidden but the folder itself and what it may import. */
export function allowListRule(list: FolderAllowList): LayerRule {
  return { id: `${list.folder}-may-import`, from: [list.folder], forbid: ANYTHING, allow: [`server/${list.folder}`, ...list.may], rationale: list.rationale };
}

/** Every rule the server's code is checked against. */
export const LAYER_RULES: readonly LayerRule[] = [...FOLDER_ALLOW_LISTS.map(allowListRule), ...INVARIANTS];

/**
 * An import cycle tolerated for now: the files of one ring of the import graph, why it is there and
 * what removes it. Every other cycle fails the layering test.
 */
export interface KnownCycle {
  files: readonly string[];
  rationale: string;
}

export const KNOWN_CYCLES: readonly KnownCycle[] = [];

/** String literals that carry era knowledge: only `server/protocol/` may spell them (the demo builds raw traffic). */
export const ERA_LITERALS: readonly string[] = ['io.modelcontextprotocol/protocolVersion', 'mcp-session-id', '2025-03-26'];
export const ERA_KNOWLEDGE_FOLDERS: readonly string[] = ['protocol', 'demo'];

export interface Violation {
  rule: string;
  path: string;
  line: number;
  /** The import specifier, or the offending literal. */
  found: string;
}

export function formatViolation(v: Violation): string {
  return `${v.rule}: ${v.path}:${v.line} → '${v.found}'`;
}

/** The folder directly under `server/`, or undefined for a path outside it ('' for a file at its root). */
export function serverFolderOf(path: string): string | undefined {
  const parts = posix.normalize(path).split('/');
  if (parts[0] !== 'server') return undefined;
  return parts.length > 2 ? parts[1] : '';
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

export function resolveTarget(fromPath: string, specifier: string): ImportTarget {
  if (specifier.startsWith('node:') || isBuiltin(specifier)) return { kind: 'node', name: specifier.replace(/^node:/, '') };
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return { kind: 'package', name: packageName(specifier) };
  const resolved = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
  const folder = serverFolderOf(resolved);
  return folder === undefined ? { kind: 'outside', path: resolved } : { kind: 'server', folder, path: resolved };
}

/** The import a pattern stands for, so that rules can be checked against allow-lists as well as code. */
export function patternTarget(pattern: TargetPattern): ImportTarget {
  if (pattern === 'outside') return { kind: 'outside', path: '..' };
  if (pattern.startsWith('node:')) return { kind: 'node', name: pattern.slice('node:'.length) };
  if (pattern.startsWith('package:')) return { kind: 'package', name: pattern.slice('package:'.length) };
  const [folder = '*', ...file] = pattern.slice('server/'.length).split('/');
  return file.length === 0 ? { kind: 'server', folder } : { kind: 'server', folder, path: pattern };
}

export function matches(target: ImportTarget, pattern: TargetPattern): boolean {
  if (pattern === 'node:*') return target.kind === 'node';
  if (pattern === 'outside') return target.kind === 'outside';
  if (pattern.startsWith('package:')) return target.kind === 'package' && (pattern === 'package:*' || target.name === pattern.slice('package:'.length));
  if (pattern.startsWith('server/')) {
    if (target.kind !== 'server') return false;
    if (pattern === 'server/*') return true;
    const named = pattern.slice('server/'.length);
    if (!named.includes('/')) return target.folder === named;
    if (named.endsWith('.js')) return target.path === pattern;
    return target.path !== undefined && (target.path === pattern || target.path.startsWith(`${pattern}/`));
  }
  return false;
}

export interface ImportRef {
  specifier: string;
  line: number;
}

function lineOf(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

function parse(text: SourceText): ts.SourceFile {
  return ts.createSourceFile(text.path, text.source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Every module a file imports: `import … from`, `import '…'`, `export … from`, `import x = require()`, `import()`. */
export function importsOf(text: SourceText): ImportRef[] {
  const file = parse(text);
  const found: ImportRef[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, line: lineOf(file, node) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function ruleApplies(rule: LayerRule, path: string, folder: string): boolean {
  if (rule.from === '*') return !(rule.exceptFrom ?? []).includes(folder);
  const inServer = path.slice('server/'.length);
  return rule.from.some((entry) => entry === folder || entry === inServer || (entry.includes('/') && !entry.endsWith('.ts') && inServer.startsWith(`${entry}/`)));
}

/** Whether a rule forbids an import. */
export function forbids(rule: LayerRule, target: ImportTarget): boolean {
  return rule.forbid.some((p) => matches(target, p)) && !(rule.allow ?? []).some((p) => matches(target, p));
}

/** Allowances an invariant forbids, as `rule: server/<folder>/ may import <pattern>`: an allow-list may narrow the design, never widen it. */
export function checkAllowLists(lists: readonly FolderAllowList[] = FOLDER_ALLOW_LISTS, invariants: readonly LayerRule[] = INVARIANTS): string[] {
  return lists.flatMap((list) =>
    invariants
      .filter((rule) => ruleApplies(rule, `server/${list.folder}/`, list.folder))
      .flatMap((rule) => list.may.filter((pattern) => forbids(rule, patternTarget(pattern))).map((pattern) => `${rule.id}: server/${list.folder}/ may import ${pattern}`)),
  );
}

/** Applies the rules to files; answers every forbidden import, in file and line order. */
export function checkLayering(files: readonly SourceText[], rules: readonly LayerRule[] = LAYER_RULES): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const folder = serverFolderOf(file.path);
    if (folder === undefined) continue;
    const applicable = rules.filter((rule) => ruleApplies(rule, file.path, folder));
    if (applicable.length === 0) continue;
    for (const ref of importsOf(file)) {
      const target = resolveTarget(file.path, ref.specifier);
      for (const rule of applicable) {
        if (forbids(rule, target)) violations.push({ rule: rule.id, path: file.path, line: ref.line, found: ref.specifier });
      }
    }
  }
  return violations;
}

/** Answers every string or template literal outside the era-knowledge folders that spells an era literal. */
export function checkEraLiterals(
  files: readonly SourceText[],
  literals: readonly string[] = ERA_LITERALS,
  homes: readonly string[] = ERA_KNOWLEDGE_FOLDERS,
): Violation[] {
  const needles = literals.map((l) => l.toLowerCase());
  const violations: Violation[] = [];
  for (const text of files) {
    const folder = serverFolderOf(text.path);
    if (folder === undefined || homes.includes(folder)) continue;
    const file = parse(text);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        const value = node.text.toLowerCase();
        if (needles.some((needle) => value.includes(needle))) violations.push({ rule: 'era-knowledge-lives-in-protocol', path: text.path, line: lineOf(file, node), found: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return violations;
}

/**
 * The rings of the import graph of `server/`: each set of files that import one another, directly or
 * round a loop (a strongly connected component of two or more files, or a file importing itself),
 * sorted, in path order. Type-only imports are edges too: a ring of types still makes modules that
 * cannot be read, moved or split alone, and an `import type` becomes a value import with one edit.
 */
export function findImportCycles(files: readonly SourceText[]): string[][] {
  const paths = new Set(files.map((file) => file.path));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file).flatMap((ref) => {
      const target = resolveTarget(file.path, ref.specifier);
      const path = target.kind === 'server' ? target.path?.replace(/\.js$/, '.ts') : undefined;
      return path !== undefined && paths.has(path) ? [path] : [];
    });
    edges.set(file.path, targets);
  }
  // Tarjan's depth-first search: a file whose lowest reachable index is its own closes a component.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (path: string): void => {
    index.set(path, index.size);
    low.set(path, index.get(path)!);
    stack.push(path);
    for (const next of edges.get(path) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(path, Math.min(low.get(path)!, low.get(next)!));
    }
    if (low.get(path) !== index.get(path)) return;
    const ring = stack.splice(stack.indexOf(path));
    if (ring.length > 1 || edges.get(path)!.includes(path)) cycles.push(ring.sort());
  };
  for (const path of [...paths].sort()) if (!index.has(path)) visit(path);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
