/**
 * The configuration reference in docs/configuration.md, built from the code that defines the settings:
 * every key of the config schema with its type, default and description (the schema's own), the
 * environment variables that fill it (ENV_SETTINGS, the ones load-config reads inline, the OTEL_*
 * ones otel-from-env reads) and the CLI flags that set it (each command's --help). Nothing here is
 * typed by hand but where a flag sets one field of an object, and the links to the topic pages.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';
import { configSchema } from '../server/config/config-schema.js';
import { ENV_SETTINGS, loadConfig } from '../server/config/load-config.js';
import { otelFromEnv } from '../server/config/otel-from-env.js';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_FILE = join(PROJECT_ROOT, 'docs', 'configuration.md');
export const START_MARKER = '<!-- config-reference:start -->';
export const END_MARKER = '<!-- config-reference:end -->';

/** A flag named after an object of settings sets one field of it (see configFrom in server/cli/main.ts). */
const OBJECT_FLAGS: Readonly<Record<string, string>> = { '--no-alerts': 'alerts.scheduled', '--bridge': 'bridge.enabled' };

/** Where each group of settings is explained; the docs' link test checks these resolve. */
const SEE_ALSO: Readonly<Record<string, string>> = {
  retention: '[Storage](storage.md)',
  caps: '[Hostile input](counting.md#hostile-input)',
  adminTokens: '[The admin token](security.md#the-admin-token)',
  analysis: '[Deciding](deciding.md)',
  alerts: '[Alerts](alerts.md)',
  'alerts.digest': '[The weekly digest](alerts.md#the-weekly-digest)',
  fleet: '[Fleet consistency](fleet.md#fleet-consistency)',
  identity: '[Who is calling](counting.md#who-is-calling)',
  enforcement: '[Enforcement](enforcement.md)',
  bridge: '[The legacy bridge](bridge.md)',
  otel: '[OpenTelemetry](opentelemetry.md)',
  plans: '[Plans in the config file](api.md#plans-in-the-config-file)',
  tls: '[Who is calling](counting.md#who-is-calling)',
};

interface JsonSchema {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface SettingRow {
  key: string;
  type: string;
  default: string;
  flags: string[];
  env: string[];
  description: string;
}

/** The config schema as JSON Schema of what may be written (its input), the shape the docs describe. */
export function configJsonSchema(): JsonSchema {
  return z.toJSONSchema(configSchema, { io: 'input' }) as JsonSchema;
}

const isObject = (schema: JsonSchema) => schema.type === 'object' && schema.properties !== undefined;

/** Every key, dotted, `[]` for the items of a list: intermediate objects and lists included. */
export function settingKeys(schema: JsonSchema = configJsonSchema()): string[] {
  const keys: string[] = [];
  const walk = (node: JsonSchema, prefix: string) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      keys.push(key);
      if (isObject(child)) walk(child, key);
      if (child.type === 'array' && child.items !== undefined && isObject(child.items)) walk(child.items, `${key}[]`);
    }
  };
  walk(schema, '');
  return keys;
}

function bound(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`< ${schema.exclusiveMaximum}`);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) out.push(`≤ ${schema.maximum}`);
  return out;
}

/** `string, at most 64 characters` → `strings, at most 64 characters`; an enumeration stays as it is. */
const plural = (type: string) => type.replace(/^(string|integer|number|boolean|URL|ISO date-time)\b/, '$1s');

function typeOf(schema: JsonSchema): string {
  if (schema.enum !== undefined) return schema.enum.map((value) => `\`${String(value)}\``).join(' \\| ');
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(', or ');
  switch (schema.type) {
    case 'integer':
    case 'number':
      return [schema.type, bound(schema).join(', ')].filter((part) => part !== '').join(' ');
    case 'string': {
      const base = schema.format === 'uri' ? 'URL' : schema.format === 'date-time' ? 'ISO date-time' : 'string';
      const length = [
        ...(schema.minLength !== undefined && schema.minLength > 1 ? [`at least ${schema.minLength} characters`] : []),
        ...(schema.maxLength !== undefined ? [`at most ${schema.maxLength} characters`] : []),
      ];
      return length.length === 0 ? base : `${base}, ${length.join(', ')}`;
    }
    case 'array': {
      const items = schema.items === undefined ? 'values' : isObject(schema.items) ? 'objects' : plural(typeOf(schema.items));
      const count = [
        ...(schema.minItems !== undefined && schema.minItems > 0 ? [`at least ${schema.minItems}`] : []),
        ...(schema.maxItems !== undefined ? [`at most ${schema.maxItems}`] : []),
      ];
      return `list of ${items}${count.length === 0 ? '' : ` (${count.join(', ')})`}`;
    }
    case 'object':
      if (typeof schema.additionalProperties === 'object') return `map of names to ${typeOf(schema.additionalProperties)}`;
      return 'object';
    default:
      return schema.type ?? 'any';
  }
}

const MIB = 1024 * 1024;

function defaultOf(key: string, schema: JsonSchema): string {
  if (schema.default === undefined) return 'none';
  const text = `\`${JSON.stringify(schema.default).replace(/\|/g, '\\|')}\``;
  if (/Bytes$/.test(key) && typeof schema.default === 'number' && schema.default % MIB === 0) return `${text} (${schema.default / MIB} MiB)`;
  return text;
}

/** Text for Markdown: `<` and `>` outside code spans escaped, so `<dashboard>` is not taken for HTML. */
const prose = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');

/** Text for a table cell: prose, one line, its pipes escaped. */
const cell = (text: string) => prose(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The rows of one object's own fields (not those of the objects inside it), with their keys dotted. */
function rowsOf(node: JsonSchema, prefix: string, sources: Sources): SettingRow[] {
  const rows: SettingRow[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    // An object inside a list's items has no section of its own: its fields are rows beside the item's.
    if (isObject(child) && prefix.includes('[]')) {
      rows.push({ key, type: 'object', default: defaultOf(key, child), flags: [], env: [], description: child.description ?? '' });
      rows.push(...rowsOf(child, key, sources));
      continue;
    }
    if (isObject(child)) continue;
    // At the top level only `node` is required, and every command and the middleware fill it with the host name.
    const required = node.required?.includes(name) === true && child.default === undefined && prefix !== '';
    rows.push({
      key,
      type: typeOf(child) + (required ? ', required' : ''),
      default: defaultOf(key, child),
      flags: sources.flags.get(key) ?? [],
      env: sources.env.get(key) ?? [],
      description: child.description ?? '',
    });
    if (child.type === 'array' && child.items !== undefined && isObject(child.items)) {
      if (child.items.description !== undefined) rows[rows.length - 1]!.description += ` ${child.items.description}`;
      rows.push(...rowsOf(child.items, `${key}[]`, sources));
    }
  }
  return rows;
}

function table(rows: SettingRow[]): string[] {
  return [
    '| setting | type | default | flag | environment | meaning |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) =>
      [
        `\`${row.key}\``,
        row.type,
        row.default,
        row.flags.join('<br>') || '—',
        row.env.map((name) => `\`${name}\``).join(', ') || '—',
        cell(row.description),
      ].join(' | '),
    ).map((line) => `| ${line} |`),
  ];
}

/** Renders the reference: the top-level settings, then one section per object of settings. */
export function renderReference(schema: JsonSchema, sources: Sources): string {
  const out: string[] = [
    '<!-- Generated by `npm run docs:config` from server/config/config-schema.ts: change the schema\'s descriptions, then run it. -->',
    '',
    '### Top-level settings',
    '',
    ...table(rowsOf(schema, '', sources)),
  ];
  const sections = (node: JsonSchema, prefix: string) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      if (!isObject(child)) continue;
      out.push('', `### \`${key}\``, '');
      const intro = [child.description, SEE_ALSO[key] === undefined ? undefined : `See ${SEE_ALSO[key]}.`].filter((part) => part !== undefined);
      if (intro.length > 0) out.push(prose(intro.join(' ')), '');
      out.push(...table(rowsOf(child, key, sources)));
      sections(child, key);
    }
  };
  sections(schema, '');
  return `${out.join('\n')}\n`;
}

export interface Sources {
  /** Setting key → the flags that set it, each as "`--flag` (command, …)". */
  flags: Map<string, string[]>;
  /** Setting key → the environment variables that fill it. */
  env: Map<string, string[]>;
}

const pushTo = (map: Map<string, string[]>, key: string, value: string) => map.set(key, [...(map.get(key) ?? []), value]);

/** Leaf paths whose values differ between two parsed configs. */
function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (typeof before === 'object' && before !== null && typeof after === 'object' && after !== null && !Array.isArray(before)) {
    const names = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...names].flatMap((name) => changedPaths((before as Record<string, unknown>)[name], (after as Record<string, unknown>)[name], prefix === '' ? name : `${prefix}.${name}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}

/** Values tried on a variable to see which setting it fills. */
const TRIAL_VALUES = ['0123456789abcdef'.repeat(4), 'http://127.0.0.1:9/', 'true', 'key=value', '5'];

/**
 * The environment variables and the settings they fill: ENV_SETTINGS as it says, and every other
 * variable named in load-config.ts and otel-from-env.ts by what it changes when set.
 */
export function environmentSources(): Map<string, string[]> {
  const env = new Map<string, string[]>();
  for (const [name, key] of Object.entries(ENV_SETTINGS)) pushTo(env, key, name);
  const source = (file: string) => readFileSync(join(PROJECT_ROOT, 'server', 'config', file), 'utf8');
  const base = { defaults: { node: 'n' } };
  const baseline = loadConfig(base);
  const inline = new Set(source('load-config.ts').match(/\bMCP_SUNSET_[A-Z0-9_]+\b/g) ?? []);
  for (const name of [...inline].filter((n) => !(n in ENV_SETTINGS)).sort()) {
    const keys = new Set<string>();
    for (const value of TRIAL_VALUES) {
      try {
        for (const key of changedPaths(baseline, loadConfig({ ...base, env: { [name]: value } }))) keys.add(key);
      } catch {
        // Not a value this variable takes; another trial will be.
      }
    }
    if (keys.size === 0) throw new Error(`cannot tell which setting ${name} fills: no trial value changed the configuration`);
    for (const key of keys) pushTo(env, key, name);
  }
  const otel = new Set(source('otel-from-env.ts').match(/\bOTEL_[A-Z0-9_]+\b/g) ?? []);
  for (const name of [...otel].sort()) {
    const keys = new Set<string>();
    for (const value of TRIAL_VALUES) {
      try {
        for (const key of Object.keys(otelFromEnv({ [name]: value }))) keys.add(`otel.${key}`);
      } catch {
        // As above.
      }
    }
    if (keys.size === 0) throw new Error(`cannot tell which setting ${name} fills`);
    for (const key of keys) pushTo(env, key, name);
  }
  return env;
}

const run = promisify(execFile);

/** `mcp-sunset [command] --help`, from source. */
export async function cliHelp(command?: string): Promise<string> {
  const args = ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'main.ts'), ...(command === undefined ? [] : [command]), '--help'];
  const { stdout } = await run(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, NO_COLOR: '1' } });
  return stdout;
}

/** The commands `mcp-sunset --help` lists, but help. */
export function commandsOf(help: string): string[] {
  const section = help.slice(help.indexOf('Commands:'));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

/** The long options a command's --help lists. */
export function flagsOf(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z0-9-]+)/gm)].map((m) => m[1]!).filter((flag) => flag !== '--help');
}

const camel = (flag: string) => flag.replace(/^--(no-)?/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Setting key → the flags that set it, from every command's --help. */
export async function flagSources(schema: JsonSchema): Promise<Map<string, string[]>> {
  const commands = commandsOf(await cliHelp());
  const helps = await Promise.all(commands.map(async (command) => [command, await cliHelp(command)] as const));
  const byFlag = new Map<string, { key: string; commands: string[] }>();
  for (const [command, help] of helps) {
    for (const flag of flagsOf(help)) {
      const top = schema.properties?.[camel(flag)];
      if (top === undefined) continue;
      const key = isObject(top) ? OBJECT_FLAGS[flag] : camel(flag);
      if (key === undefined) throw new Error(`${command} ${flag} names the settings object ${camel(flag)}: say which field it sets in OBJECT_FLAGS`);
      const entry = byFlag.get(flag) ?? { key, commands: [] };
      entry.commands.push(command);
      byFlag.set(flag, entry);
    }
  }
  const flags = new Map<string, string[]>();
  for (const [flag, { key, commands: on }] of byFlag) pushTo(flags, key, `\`${flag}\` (${on.join(', ')})`);
  return flags;
}

/** The reference as the code says today. */
export async function buildReference(): Promise<string> {
  const schema = configJsonSchema();
  return renderReference(schema, { flags: await flagSources(schema), env: environmentSources() });
}

/** The document with the reference put between its markers; the text around them stays. */
export function spliceReference(document: string, reference: string): string {
  const start = document.indexOf(START_MARKER);
  const end = document.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`the document has no ${START_MARKER} … ${END_MARKER} pair`);
  return `${document.slice(0, start + START_MARKER.length)}\n${reference}${document.slice(end)}`;
}
