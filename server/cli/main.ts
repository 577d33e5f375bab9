#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { ConfigInput } from '../config/config-schema.js';
import { ConfigError, loadConfig } from '../config/load-config.js';
import { redactStoreError } from '../lib/redact-store-error.js';
import { redactStoreLocation } from '../lib/redact-store-location.js';
import { redactStoreSecrets } from '../lib/redact-store-secrets.js';
import { isPostgresLocation } from '../store/is-postgres-location.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { day } from '../api/plan-input-schema.js';
import { buildReport, formatReport } from './commands/build-report.js';
import { buildDryRun, formatDryRun, formatGate, type DryRunResult } from './commands/dry-run.js';
import { judgeDryRun, parseFailOn, type FailOn } from './commands/dry-run-gate.js';
import { fetchDryRun } from './commands/fetch-dry-run.js';
import { UsageError } from './usage-error.js';
import { registerPauseCommands } from './commands/register-pause-commands.js';
import { runProbe, type ProbeFlags } from './commands/probe.js';
import { runServe } from './commands/serve.js';
import { runDashboard } from './commands/dashboard.js';
import { runWrap } from './commands/wrap.js';
import { readConfigFile } from './read-config-file.js';
import { validateDeclaredPlans } from './validate-declared-plans.js';

function integer(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a positive integer');
  return parsed;
}

function date(value: string): string {
  if (!day.safeParse(value).success) throw new InvalidArgumentError('expected a date as YYYY-MM-DD');
  return value;
}

function failOn(value: string): FailOn {
  const parsed = parseFailOn(value);
  if (parsed === undefined) throw new InvalidArgumentError('expected identifiable, any, or share:<fraction> with the fraction from 0 to 1');
  return parsed;
}

function httpUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http(s) URL');
  return url;
}

/** Commands whose usage errors exit 2, as their documented exit codes say (3 is the dry run's gate). */
const USAGE_EXITS_TWO = new Set(['dry-run', 'pause', 'resume']);

function configFrom(flags: Record<string, unknown>, defaults: Partial<ConfigInput> = {}) {
  // `--no-alerts` sets one field of the `alerts` object, which a flag of that name would replace whole.
  const { config: file, alerts, bridge, ...rest } = flags;
  const loaded = loadConfig({
    file: readConfigFile(file as string | undefined),
    env: process.env,
    flags: rest,
    defaults: { node: hostname(), ...defaults },
  });
  let config = alerts === false ? Object.freeze({ ...loaded, alerts: { ...loaded.alerts, scheduled: false } }) : loaded;
  if (bridge === true) config = Object.freeze({ ...config, bridge: { ...config.bridge, enabled: true } });
  // Before anything starts: a bad plan in the file stops the process with one line.
  if (config.plans !== undefined) validateDeclaredPlans(config.plans);
  return config;
}

/** Opens the store for a one-shot command; its error, shown on stderr, never carries the location's secrets. */
async function openStoreFor(location: string): Promise<Store> {
  if (!isPostgresLocation(location) && !existsSync(location)) throw new Error(`no database at ${redactStoreLocation(location)}; run \`mcp-sunset serve\` first, or pass --db`);
  try {
    return await openStore(location);
  } catch (error) {
    throw redactStoreError(error, location);
  }
}

const program = new Command()
  .name('mcp-sunset')
  .description('Count MCP traffic by the lifecycle path that served it, to decide when the legacy era can go.')
  .showSuggestionAfterError()
  .configureOutput({ outputError: (text, write) => write(`mcp-sunset: ${text.replace(/^error: /, '')}`) })
  .exitOverride();

function serveOptions(command: Command): Command {
  return command
    .option('--listen <host:port>', 'where the sidecar proxy listens (default 127.0.0.1:8808)')
    .option('--dashboard <host:port>', 'where the API, /healthz and /metrics listen (default 127.0.0.1:8809)')
    .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
    .option('--node <name>', 'this sidecar\'s name in the fleet (default: host name)')
    .option('--public-prefix <path>', 'path prefix clients use, when it differs from the upstream URL\'s path')
    .option('--max-body-bytes <n>', 'largest request body read for classification', integer)
    .option('--flush-interval-ms <n>', 'how often counts are written to the database', integer)
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent')
    .option('--no-alerts', 'do not evaluate alert rules on schedule here (another process sharing the store does)')
    .option('--bridge', 'answer legacy clients in front of a modern-only upstream (needs MCP_SUNSET_BRIDGE_KEY or bridge.key)')
    .option('--config <file>', 'JSON config file (flags and MCP_SUNSET_* variables override it)');
}

serveOptions(program.command('serve').description('proxy an MCP server and count its traffic (runs the demo when no upstream is given)'))
  .option('--upstream <url>', 'the MCP server to front, e.g. http://127.0.0.1:3000')
  .action(async (flags: Record<string, unknown>) => runServe(configFrom(flags), { demo: false }));

serveOptions(program.command('demo').description('run a bundled dual-era MCP server behind the sidecar with real SDK clients of both eras'))
  .action(async (flags: Record<string, unknown>) => runServe(configFrom({ ...flags, upstream: undefined }), { demo: true }));

program
  .command('dashboard')
  .description('serve the API, dashboard, /healthz and /metrics over the store sidecars write to, with no proxy')
  .option('--dashboard <host:port>', 'where the API, dashboard, /healthz and /metrics listen (default 127.0.0.1:8809)')
  .option('--db <path|url>', 'the store the sidecars write to: a SQLite file or a postgres:// URL (default .data/mcp-sunset.db)')
  .option('--node <name>', 'this process\'s name on /healthz (default: host name)')
  .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent')
  .option('--no-alerts', 'do not evaluate alert rules on schedule here (another process sharing the store does)')
  .option('--config <file>', 'JSON config file (flags and MCP_SUNSET_* variables override it)')
  .action(async (flags: Record<string, unknown>) => runDashboard(configFrom(flags)));

program
  .command('wrap')
  .description('run a stdio MCP server with the sidecar in between: mcp-sunset wrap [options] -- <command> [args…]')
  .argument('<command...>', 'the server command line, after --')
  .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
  .option('--node <name>', 'this sidecar\'s name in the fleet (default: host name)')
  .option('--caller <name>', 'who launches this server, counted as integration stdio:<name>')
  .option('--bridge', 'answer legacy clients in front of a modern-only server')
  .option('--log-level <level>', 'log level on stderr (default warn: stdout is the MCP channel)')
  .option('--config <file>', 'JSON config file')
  .action(async (command: string[], flags: Record<string, unknown>) => {
    const { caller, ...rest } = flags;
    const config = configFrom(rest, { logLevel: 'warn' });
    await runWrap(config, command, { caller: caller as string | undefined });
  });

program
  .command('report')
  .description('summarise the last 24 h: messages by era and version, and the legacy share of served work requests')
  .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
  .option('--json', 'print JSON instead of a table')
  .option('--config <file>', 'JSON config file')
  .action(async (flags: { db?: string; json?: boolean; config?: string }) => {
    const config = configFrom({ db: flags.db, config: flags.config });
    const store = await openStoreFor(config.db);
    try {
      const report = await buildReport(store, Date.now());
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, redactStoreSecrets(store.location, config.db)));
    } finally {
      await store.close();
    }
  });

program
  .command('dry-run')
  .description('who a cut of a plan\'s scope on a date would refuse, from the stored counts; with --fail-on, a gate for CI')
  .requiredOption('--plan <id>', 'the plan\'s id', integer)
  .option('--at <date>', 'the cut date asked about, YYYY-MM-DD (default: the plan\'s retire date)', date)
  .option('--fail-on <what>', 'exit 3 when the cut would refuse: identifiable (a caller that can be told apart), any, or share:<fraction> (a refused share above it)', failOn)
  .option('--json', 'print the JSON of GET /api/v1/plans/:id/dry-run instead of a table (with --fail-on, and the gate\'s verdict as `gate`)')
  .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
  .option('--config <file>', 'JSON config file')
  .option('--api <url>', 'read it from a running dashboard\'s API instead of the store', httpUrl)
  .option('--token <token>', 'the dashboard\'s admin token, with --api (default: MCP_SUNSET_ADMIN_TOKEN)')
  .action(async (flags: { plan: number; at?: string; failOn?: FailOn; json?: boolean; db?: string; config?: string; api?: URL; token?: string }) => {
    if (flags.api !== undefined && (flags.db !== undefined || flags.config !== undefined)) throw new UsageError('--api reads the dashboard\'s store: give it without --db or --config');
    if (flags.api === undefined && flags.token !== undefined) throw new UsageError('--token is for --api');
    let result: DryRunResult;
    if (flags.api !== undefined) result = await fetchDryRun(flags.api, flags.token ?? process.env.MCP_SUNSET_ADMIN_TOKEN, flags.plan, flags.at);
    else {
      const config = configFrom({ db: flags.db, config: flags.config });
      const store = await openStoreFor(config.db);
      try {
        result = await buildDryRun(store, flags.plan, flags.at, Date.now());
      } finally {
        await store.close();
      }
    }
    const verdict = flags.failOn === undefined ? undefined : judgeDryRun(result.report, flags.failOn);
    if (flags.json) process.stdout.write(`${JSON.stringify(verdict === undefined ? result.report : { ...result.report, gate: verdict }, null, 2)}\n`);
    else process.stdout.write(formatDryRun(result) + (verdict === undefined ? '' : `\n${formatGate(verdict)}`));
    if (verdict?.failed === true) process.exitCode = 3;
  });

registerPauseCommands(program, {
  openStore: async (flags) => openStoreFor(configFrom({ db: flags.db, config: flags.config }).db),
  planId: integer,
  apiUrl: httpUrl,
});

program
  .command('probe')
  .description('find out which era each MCP server speaks, without ever downgrading a modern one')
  .argument('[targets...]', 'http(s) URL or stdio:<command line>, optionally as name=<target>; or the name of a peer in --config')
  .option('--json', 'print one JSON object per target, one per line')
  .option('--allow-legacy', 'let these targets take one validated initialize after an ambiguous answer')
  .option('--no-legacy-on-evidence', 'do not initialize on recognised legacy-only evidence alone')
  .option('--allow-http-sse', 'let these targets fall back to the deprecated HTTP+SSE transport')
  .option('--probe-timeout-ms <n>', 'deadline of server/discover and later requests (default 10000)', integer)
  .option('--initialize-timeout-ms <n>', 'deadline of the one legacy initialize (default 10000)', integer)
  .option('--attempts <n>', 'attempts while a target is unavailable, with backoff (default 3)', integer)
  .option('--tools', 'list every ready target\'s tools and merge them')
  .option('--collision <policy>', 'when two targets offer the same tool: prefix (default) or reject')
  .option('--config <file>', 'JSON config file with peers under probe.peers')
  .action(async (targets: string[], flags: ProbeFlags) => {
    process.exitCode = await runProbe(targets, flags, (text) => process.stdout.write(text));
  });

program
  .command('migrate')
  .description('create or upgrade the database schema')
  .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
  .action(async (flags: { db?: string }) => {
    const location = configFrom({ db: flags.db }).db;
    let store: Store;
    try {
      store = await openStore(location);
    } catch (error) {
      throw redactStoreError(error, location);
    }
    process.stdout.write(`database ready: ${redactStoreSecrets(store.location, location)}\n`);
    await store.close();
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode !== 0 && USAGE_EXITS_TWO.has(process.argv[2] ?? '') ? 2 : error.exitCode);
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcp-sunset: ${message.split('\n')[0]}\n`);
  process.exit(error instanceof ConfigError || error instanceof UsageError ? 2 : 1);
}
