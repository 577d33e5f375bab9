/**
 * The dependency rules of the server layout as data, and a checker that applies them to source text.
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

/** What an import points at. */
export type ImportTarget =
  | { kind: 'node'; name: string }
  | { kind: 'package'; name: string }
  | { kind: 'server'; folder: string }
  | { kind: 'outside'; path: string };

/**
 * Patterns over import targets: `node:*` (any built-in), `package:*` or `package:<name>`,
 * `server/*` or `server/<folder>`, and `outside` (a relative import leaving `server/`).
 */
export type TargetPattern = 'node:*' | 'package:*' | `package:${string}` | 'server/*' | `server/${string}` | 'outside';

export interface LayerRule {
  id: string;
  /** Folders under `server/` whose files the rule constrains; `*` for every folder. */
  from: readonly string[] | '*';
  /** Folders exempt from a `*` rule. */
  exceptFrom?: readonly string[];
  forbid: readonly TargetPattern[];
  /** Exceptions to `forbid`. */
  allow?: readonly TargetPattern[];
  rationale: string;
}

export const LAYER_RULES: readonly LayerRule[] = [
  {
    id: 'protocol-is-pure',
    from: ['protocol'],
    forbid: ['node:*', 'package:*', 'server/*', 'outside'],
    allow: ['server/protocol'],
    rationale:
      'Era knowledge is pure and self-contained: no I/O, no runtime, no library, so the classifier is deterministic, '
      + 'cheap on the hot path, and reusable by the sidecar, the prober and the benchmarks alike.',
  },
  {
    id: 'config-is-a-leaf',
    from: ['config'],
    forbid: ['server/*'],
    allow: ['server/config'],
    rationale: 'Configuration is parsed once at start-up and sits at the bottom: if it imported a layer, that layer could not be configured by it.',
  },
  {
    id: 'lib-is-a-leaf',
    from: ['lib'],
    forbid: ['server/*'],
    allow: ['server/lib'],
    rationale: 'Shared helpers (time buckets, logger, metrics) are used by every layer; importing one of them back would create a cycle.',
  },
  {
    id: 'sidecar-stays-on-the-hot-path',
    from: ['sidecar'],
    forbid: ['server/api', 'server/store', 'server/cli'],
    rationale: 'The proxy must never wait on storage or know the dashboard: it records into the in-memory tally and traffic flows even when the store fails (invariant 2).',
  },
  {
    id: 'analysis-takes-rows',
    from: ['analysis'],
    forbid: ['server/store'],
    rationale: 'Analysis is pure maths over rows and `now`; reading the database itself would make it untestable without SQLite.',
  },
  {
    id: 'tally-writes-only-to-a-sink',
    from: ['tally'],
    forbid: ['server/sidecar', 'server/api', 'server/store', 'server/cli'],
    rationale: 'The tally aggregates observations and hands batches to an injected sink (store or collector); it must not know who feeds it nor where batches land.',
  },
  {
    id: 'store-is-storage-only',
    from: ['store'],
    forbid: ['package:express', 'server/api', 'server/sidecar', 'server/cli'],
    rationale: 'Queries know tables and rows, not HTTP: the API calls the store, never the reverse, so one query file serves the API, the CLI report and the scheduler.',
  },
  {
    id: 'cli-is-the-composition-root',
    from: '*',
    exceptFrom: ['cli'],
    forbid: ['server/cli'],
    rationale: 'The CLI wires every part together; anything importing it would import the whole application.',
  },
  {
    id: 'api-does-not-proxy',
    from: ['api'],
    forbid: ['server/sidecar'],
    rationale: 'The dashboard API reads counts from the store; a sidecar can run on another node, so the API must not reach into the proxy\'s memory.',
  },
  {
    id: 'views-are-read-models',
    from: ['views'],
    forbid: ['server/api', 'server/sidecar', 'server/alerts', 'package:express'],
    rationale: 'Views compose store reads with analysis for both the API and the alerts; knowing either consumer, or HTTP, would tie one to the other.',
  },
  {
    id: 'prober-is-a-client',
    from: ['prober'],
    forbid: ['server/api', 'server/sidecar', 'server/store', 'server/alerts', 'server/views', 'server/fleet', 'package:express'],
    rationale: 'The prober is a reusable client library (mcp-sunset/prober): hosts import it without a database, a proxy or a web server.',
  },
  {
    id: 'fleet-checks-do-not-serve',
    from: ['fleet'],
    forbid: ['server/api', 'server/sidecar', 'package:express'],
    rationale: 'Fleet checks probe nodes and store results; the API triggers them, never the reverse, and the proxy path must not wait on them.',
  },
  {
    id: 'alerts-stay-off-http-and-proxy',
    from: ['alerts'],
    forbid: ['server/api', 'server/sidecar', 'package:express'],
    rationale: 'Alert rules judge stored counts through the views and talk to webhooks; the API triggers them, never the reverse, and the proxy path must not wait on them.',
  },
];

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
  return folder === undefined ? { kind: 'outside', path: resolved } : { kind: 'server', folder };
}

export function matches(target: ImportTarget, pattern: TargetPattern): boolean {
  if (pattern === 'node:*') return target.kind === 'node';
  if (pattern === 'outside') return target.kind === 'outside';
  if (pattern.startsWith('package:')) return target.kind === 'package' && (pattern === 'package:*' || target.name === pattern.slice('package:'.length));
  if (pattern.startsWith('server/')) return target.kind === 'server' && (pattern === 'server/*' || target.folder === pattern.slice('server/'.length));
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

function ruleApplies(rule: LayerRule, folder: string): boolean {
  if (rule.from === '*') return !(rule.exceptFrom ?? []).includes(folder);
  return rule.from.includes(folder);
}

/** Applies the rules to files; answers every forbidden import, in file and line order. */
export function checkLayering(files: readonly SourceText[], rules: readonly LayerRule[] = LAYER_RULES): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const folder = serverFolderOf(file.path);
    if (folder === undefined) continue;
    const applicable = rules.filter((rule) => ruleApplies(rule, folder));
    if (applicable.length === 0) continue;
    for (const ref of importsOf(file)) {
      const target = resolveTarget(file.path, ref.specifier);
      for (const rule of applicable) {
        const forbidden = rule.forbid.some((p) => matches(target, p)) && !(rule.allow ?? []).some((p) => matches(target, p));
        if (forbidden) violations.push({ rule: rule.id, path: file.path, line: ref.line, found: ref.specifier });
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
