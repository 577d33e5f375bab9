/** The `pause`, `resume`, `join` and `unjoin` commands' flags, checks and output, on the program main.ts builds: each changes the store, or a dashboard's through its API. */
import { InvalidArgumentError, type Command } from 'commander';
import { pauseDuration, pauseReason } from '../../api/pause-input-schema.js';
import type { Store } from '../../store/store.js';
import { UsageError } from '../usage-error.js';
import { formatPauseOutcome, pausePlansAt, resumePlansAt, type PauseTarget } from './pause.js';
import { formatJoin, formatUnjoin, joinAt, unjoinAt } from './join.js';

export interface PauseCommandDeps {
  /** Opens the store a one-shot command names with --db / --config. */
  openStore(flags: { db?: string; config?: string }): Promise<Store>;
  planId(value: string): number;
  apiUrl(value: string): URL;
}

interface TargetFlags {
  plan: number[];
  all?: boolean;
  db?: string;
  config?: string;
  api?: URL;
  token?: string;
  json?: boolean;
}

function duration(value: string): number {
  const parsed = pauseDuration.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]!.message);
  return parsed.data;
}

function reason(value: string): string {
  const parsed = pauseReason.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]!.message);
  return parsed.data;
}

function plansOf(flags: TargetFlags): 'all' | number[] {
  if (flags.all === true && flags.plan.length > 0) throw new UsageError('give --plan or --all, not both');
  if (flags.all !== true && flags.plan.length === 0) throw new UsageError('say which plans: --plan ID (again for more) or --all');
  return flags.all === true ? 'all' : flags.plan;
}

/** Runs `work` on the target the flags name, closing a store it opened. */
async function withTarget<T>(deps: PauseCommandDeps, flags: TargetFlags, work: (target: PauseTarget) => Promise<T>): Promise<T> {
  if (flags.api !== undefined && (flags.db !== undefined || flags.config !== undefined)) throw new UsageError('--api changes the dashboard\'s store: give it without --db or --config');
  if (flags.api === undefined && flags.token !== undefined) throw new UsageError('--token is for --api');
  if (flags.api !== undefined) return work({ kind: 'api', url: flags.api, token: flags.token ?? process.env.MCP_SUNSET_ADMIN_TOKEN });
  const store = await deps.openStore({ db: flags.db, config: flags.config });
  try {
    return await work({ kind: 'store', store });
  } finally {
    await store.close();
  }
}

function storeOptions(command: Command, deps: PauseCommandDeps): Command {
  return command
    .option('--json', 'print the API\'s JSON instead of lines')
    .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
    .option('--config <file>', 'JSON config file')
    .option('--api <url>', 'make the change through a running dashboard\'s API instead of on the store', deps.apiUrl)
    .option('--token <token>', 'the dashboard\'s admin token, with --api (default: MCP_SUNSET_ADMIN_TOKEN)');
}

function targetOptions(command: Command, deps: PauseCommandDeps): Command {
  return storeOptions(
    command
      .option('--plan <id>', 'a plan\'s id; again for more', (value: string, previous: number[]) => [...previous, deps.planId(value)], [] as number[])
      .option('--all', 'every plan not archived that does more than observe'),
    deps,
  );
}

function note(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 500) throw new InvalidArgumentError('1 to 500 characters');
  return trimmed;
}

function callerName(value: string): string {
  if (value === '' || value.length > 256) throw new InvalidArgumentError('a caller\'s key, 1 to 256 characters');
  return value;
}

export function registerPauseCommands(program: Command, deps: PauseCommandDeps): void {
  targetOptions(program.command('pause').description('stop every refusal of the chosen plans on every node, for a while: what they would refuse passes, counted as would-block'), deps)
    .requiredOption('--for <span>', 'how long, e.g. 30m, 24h, 3d or 1d12h (at most 30d); enforcement resumes by itself after it', duration)
    .requiredOption('--reason <text>', 'why: shown on the plan\'s timeline and in the alerts', reason)
    .action(async (flags: TargetFlags & { for: number; reason: string }) => {
      const plans = plansOf(flags);
      const outcome = await withTarget(deps, flags, (target) => pausePlansAt(target, { plans, forMs: flags.for, reason: flags.reason }, Date.now()));
      process.stdout.write(flags.json ? `${JSON.stringify({ pauses: outcome.entries }, null, 2)}\n` : formatPauseOutcome(outcome));
    });

  storeOptions(program.command('join').description('count other names (an old token\'s tok_ key, a gateway\'s name, an mTLS subject, an OAuth client) as one caller, history included; exemptions and known callers follow'), deps)
    .argument('<names...>', 'the names to join, as the integrations list shows their keys')
    .requiredOption('--into <key>', 'the caller they become', callerName)
    .option('--note <text>', 'why, kept with the join and in the audit trail', note)
    .action(async (names: string[], flags: Omit<TargetFlags, 'plan' | 'all'> & { into: string; note?: string }) => {
      const bad = names.find((name) => name === '' || name.length > 256);
      if (bad !== undefined) throw new UsageError('each name is a caller\'s key, 1 to 256 characters');
      const result = await withTarget(deps, { ...flags, plan: [] }, (target) => joinAt(target, { into: flags.into, aliases: names, note: flags.note ?? null }, Date.now()));
      process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatJoin(result));
    });

  storeOptions(program.command('unjoin').description('undo a join: the name counts as its own caller again, with its own history'), deps)
    .argument('<name>', 'the name joined into the caller')
    .requiredOption('--from <key>', 'the caller it is joined into', callerName)
    .action(async (name: string, flags: Omit<TargetFlags, 'plan' | 'all'> & { from: string }) => {
      const row = await withTarget(deps, { ...flags, plan: [] }, (target) => unjoinAt(target, flags.from, name, Date.now()));
      process.stdout.write(flags.json ? `${JSON.stringify(row, null, 2)}\n` : formatUnjoin(row));
    });

  targetOptions(program.command('resume').description('end the pauses of the chosen plans now: they refuse again at once'), deps).action(async (flags: TargetFlags) => {
    const plans = plansOf(flags);
    const outcome = await withTarget(deps, flags, (target) => resumePlansAt(target, plans, Date.now()));
    process.stdout.write(flags.json ? `${JSON.stringify({ resumed: outcome.entries }, null, 2)}\n` : formatPauseOutcome(outcome));
  });
}
