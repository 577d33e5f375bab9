/** The `pause` and `resume` commands' flags, checks and output, on the program main.ts builds. */
import { InvalidArgumentError, type Command } from 'commander';
import { pauseDuration, pauseReason } from '../../api/pause-input-schema.js';
import type { Store } from '../../store/store.js';
import { UsageError } from '../usage-error.js';
import { formatPauseOutcome, pausePlansAt, resumePlansAt, type PauseTarget } from './pause.js';

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

function targetOptions(command: Command, deps: PauseCommandDeps): Command {
  return command
    .option('--plan <id>', 'a plan\'s id; again for more', (value: string, previous: number[]) => [...previous, deps.planId(value)], [] as number[])
    .option('--all', 'every plan not archived that does more than observe')
    .option('--json', 'print the API\'s JSON instead of lines')
    .option('--db <path|url>', 'SQLite database file, or a postgres:// URL shared by a fleet (default .data/mcp-sunset.db)')
    .option('--config <file>', 'JSON config file')
    .option('--api <url>', 'make the change through a running dashboard\'s API instead of on the store', deps.apiUrl)
    .option('--token <token>', 'the dashboard\'s admin token, with --api (default: MCP_SUNSET_ADMIN_TOKEN)');
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

  targetOptions(program.command('resume').description('end the pauses of the chosen plans now: they refuse again at once'), deps).action(async (flags: TargetFlags) => {
    const plans = plansOf(flags);
    const outcome = await withTarget(deps, flags, (target) => resumePlansAt(target, plans, Date.now()));
    process.stdout.write(flags.json ? `${JSON.stringify({ resumed: outcome.entries }, null, 2)}\n` : formatPauseOutcome(outcome));
  });
}
