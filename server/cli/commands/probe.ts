/**
 * `mcp-sunset probe`: which era each MCP server speaks, decided by the downgrade-safe prober.
 * Peers come from the command line (`[name=]<url | stdio:command line>`) and from `probe.peers`
 * in the --config file, read here with its own schema. Policy flags apply to the command-line
 * targets; a config peer carries its own. Exit code: 0 when every peer is ready (and, with
 * --tools, the catalogue merged), 1 otherwise; bad input is a ConfigError (status 2).
 */
import { z } from 'zod';
import { ConfigError } from '../../config/load-config.js';
import { formatVerdictTable } from '../../prober/report/format-verdict-table.js';
import { COLLISION_POLICIES, type CatalogueResult, type CollisionPolicy } from '../../prober/catalogue/merge-catalogues.js';
import { findPeerNameProblem, type PeerConfig, type PeerTarget } from '../../prober/targets/peer-config.js';
import { namePeers, parseTarget, parseTargetText } from '../../prober/targets/parse-target.js';
import { probeCatalogue, type PeerReport } from '../../prober/probe.js';
import { readConfigFile } from '../read-config-file.js';

export interface ProbeFlags {
  json?: boolean;
  allowLegacy?: boolean;
  legacyOnEvidence?: boolean;
  allowHttpSse?: boolean;
  probeTimeoutMs?: number;
  initializeTimeoutMs?: number;
  attempts?: number;
  tools?: boolean;
  collision?: string;
  config?: string;
}

const POLICY_KEYS = ['allowLegacy', 'allowHttpSse', 'legacyOnEvidence'] as const;
const exactFlag = (key: string) =>
  z.boolean({ error: `must be true or false on this peer: the allowlist names exact peers, and wildcards are refused (${key})` }).optional();

const peerSchema = z
  .object({
    name: z.string().superRefine((name, ctx) => {
      const problem = findPeerNameProblem(name);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    }),
    target: z.string().optional(),
    url: z.string().optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    allowLegacy: exactFlag('allowLegacy'),
    allowHttpSse: exactFlag('allowHttpSse'),
    legacyOnEvidence: exactFlag('legacyOnEvidence'),
  })
  .strict()
  .refine((p) => [p.target, p.url, p.command].filter((v) => v !== undefined).length === 1, 'give exactly one of target, url or command');

const fileSchema = z
  .object({
    peers: z.array(peerSchema).default([]),
    probeTimeoutMs: z.number().int().positive().optional(),
    initializeTimeoutMs: z.number().int().positive().optional(),
    attempts: z.number().int().positive().optional(),
    collision: z.enum(['prefix', 'reject']).optional(),
  })
  .strict();

type FileSettings = z.infer<typeof fileSchema>;

function targetOfEntry(entry: z.infer<typeof peerSchema>, where: string): PeerTarget {
  const stdioOnly = entry.env !== undefined || entry.cwd !== undefined || entry.args !== undefined;
  if (entry.headers !== undefined && entry.command !== undefined) throw new ConfigError(`${where}.headers: only an http(s) peer takes headers`);
  if (entry.command !== undefined) return { kind: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env, cwd: entry.cwd };
  const parsed = parseTargetText(entry.url ?? entry.target ?? '');
  if (!parsed.ok) throw new ConfigError(`${where}: ${parsed.error}`);
  if (parsed.target.kind === 'http') {
    if (stdioOnly) throw new ConfigError(`${where}: args, env and cwd only apply to a stdio peer`);
    return entry.headers === undefined ? parsed.target : { ...parsed.target, headers: entry.headers };
  }
  if (entry.headers !== undefined) throw new ConfigError(`${where}.headers: only an http(s) peer takes headers`);
  if (entry.args !== undefined) throw new ConfigError(`${where}.args: give the arguments in the command line of target, or use command and args`);
  return { ...parsed.target, env: { ...parsed.target.env, ...entry.env }, cwd: entry.cwd };
}

/** Reads `probe` from the config file; other keys of the file belong to other commands. */
function readProbeSettings(path: string | undefined): { settings: FileSettings; peers: PeerConfig[] } {
  const file = readConfigFile(path);
  const raw = file?.probe ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`config file ${path}: probe: expected an object with peers`);
  for (const key of POLICY_KEYS) {
    if (Object.hasOwn(raw, key)) throw new ConfigError(`config file ${path}: probe.${key}: set ${key} on each peer in probe.peers; the allowlist names exact peers, and wildcards are refused`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`config file ${path}: probe.${issue.path.join('.')}: ${issue.message}`);
  }
  const peers = parsed.data.peers.map((entry, i): PeerConfig => {
    const where = `config file ${path}: probe.peers.${i}`;
    const peer: PeerConfig = { name: entry.name, target: targetOfEntry(entry, where) };
    for (const key of POLICY_KEYS) if (entry[key] !== undefined) peer[key] = entry[key];
    return peer;
  });
  return { settings: parsed.data, peers };
}

function peersFromArguments(targets: readonly string[], flags: ProbeFlags): PeerConfig[] {
  const parsed = targets.map((text) => {
    const result = parseTarget(text);
    if (!result.ok) throw new ConfigError(result.error);
    return result;
  });
  const named = namePeers(parsed);
  if (!named.ok) throw new ConfigError(named.error);
  return parsed.map(({ target }, i) => ({
    name: named.names[i]!,
    target,
    allowLegacy: flags.allowLegacy ?? false,
    allowHttpSse: flags.allowHttpSse ?? false,
    legacyOnEvidence: flags.legacyOnEvidence ?? true,
  }));
}

/** One JSON object per peer: the verdict, and with --tools its part of the merged catalogue. */
function toJsonLine(report: PeerReport, catalogue: CatalogueResult | undefined): string {
  if (catalogue === undefined) return JSON.stringify(report.verdict);
  const { verdict, tools } = report;
  const took = verdict.state === 'ready' && tools?.ok === true;
  const own = !took ? null : catalogue.ok ? catalogue.tools.filter((t) => t.peer === verdict.peer).map(({ name, tool, description }) => ({ name, tool, description })) : null;
  const toolsError = tools !== null && !tools.ok ? tools.detail : took && !catalogue.ok ? catalogue.error : null;
  const toolsTruncated = tools?.ok === true ? tools.truncated : null;
  return JSON.stringify({ ...verdict, tools: own, toolsError, toolsTruncated });
}

export function parseCollisionPolicy(value: string): CollisionPolicy {
  if (!(COLLISION_POLICIES as readonly string[]).includes(value)) throw new ConfigError(`--collision: expected ${COLLISION_POLICIES.join(' or ')}, got "${value}"`);
  return value as CollisionPolicy;
}

/** Runs the command and answers its exit code. */
export async function runProbe(targets: readonly string[], flags: ProbeFlags, write: (text: string) => void): Promise<number> {
  const collisionFlag = flags.collision === undefined ? undefined : parseCollisionPolicy(flags.collision);
  const file = flags.config === undefined ? { settings: undefined, peers: [] } : readProbeSettings(flags.config);
  const selected = targets.filter((t) => file.peers.some((p) => p.name === t));
  const fromFile = selected.length > 0 ? file.peers.filter((p) => selected.includes(p.name)) : file.peers;
  const peers = [...fromFile, ...peersFromArguments(targets.filter((t) => !selected.includes(t)), flags)];
  if (peers.length === 0) throw new ConfigError('no targets: give http(s) URLs or stdio:<command line>, or peers under probe.peers in --config');
  const clash = peers.find((p, i) => peers.findIndex((q) => q.name === p.name) !== i);
  if (clash !== undefined) throw new ConfigError(`two peers are named "${clash.name}"; name command-line targets with name=<target>`);

  const collision = collisionFlag ?? file.settings?.collision ?? 'prefix';
  const { peers: reports, catalogue } = await probeCatalogue(peers, {
    probeTimeoutMs: flags.probeTimeoutMs ?? file.settings?.probeTimeoutMs,
    initializeTimeoutMs: flags.initializeTimeoutMs ?? file.settings?.initializeTimeoutMs,
    attempts: flags.attempts ?? file.settings?.attempts,
    collision,
  });
  const shown = flags.tools ? catalogue : undefined;
  write(flags.json ? reports.map((r) => `${toJsonLine(r, shown)}\n`).join('') : formatVerdictTable(reports, shown));
  const allReady = reports.every((r) => r.verdict.state === 'ready');
  return allReady && (shown === undefined || shown.ok) ? 0 : 1;
}
