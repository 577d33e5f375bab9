import { z } from 'zod';
import { generateBrownouts, isTimeZone } from '../analysis/generate-brownouts.js';
import { parseDuration } from '../lib/parse-duration.js';
import { scopeCarriesModern } from '../protocol/modern-carriers.js';
import { TRANSPORTS } from '../protocol/vocabulary.js';
import { DEFAULT_SHARE_BASIS, SHARE_BASES } from '../protocol/work-request.js';
import { PLAN_ACTIONS } from '../store/records/plan-record.js';

export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a calendar date');

const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO-8601 time such as 2027-01-15T09:00:00Z' });

export const scopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('era'), value: z.literal('legacy') }).strict(),
  z.object({ kind: z.literal('transport'), value: z.enum(TRANSPORTS) }).strict(),
  z.object({ kind: z.literal('version'), value: z.string().trim().min(1).max(64) }).strict(),
]);

const brownoutSchema = z
  .object({ startsAt: isoTime, endsAt: isoTime, note: z.string().max(500).nullable().optional() })
  .strict()
  .refine((b) => Date.parse(b.endsAt) > Date.parse(b.startsAt), { path: ['endsAt'], message: 'must be after startsAt' });

const DAY_MS = 86_400_000;
/** The last day a date is written as YYYY-MM-DD (a window a day long may end the day after). */
const LAST_DAY = Date.UTC(9999, 11, 30);

/** The longest one generated window may be. */
const MAX_BROWNOUT_MS = 7 * 86_400_000;

const brownoutSpan = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0 || ms > MAX_BROWNOUT_MS) {
    ctx.addIssue({ code: 'custom', message: 'expected a span such as 1h, 4h, 12h or 1d, at most 7d' });
    return z.NEVER;
  }
  return ms;
});

const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a local time as HH:MM, 00:00 to 23:59');

/**
 * Escalating brownouts, generated into `brownouts` when a plan is made or changed: the first on
 * `firstDate` at `startTime` in `timeZone`, each next `everyDays` local days later at the same local
 * time, each as long as its entry in `durations`. Only the windows are stored.
 */
export const brownoutScheduleSchema = z
  .object({
    firstDate: day,
    startTime: localTime,
    timeZone: z.string().min(1).max(64).refine(isTimeZone, 'expected an IANA time zone such as Europe/Berlin, America/New_York or UTC'),
    durations: z.array(brownoutSpan).min(1).max(20),
    everyDays: z.number().int('must be a whole number of days').min(1).max(90).default(7),
    note: z.string().max(400).optional(),
  })
  .strict()
  .superRefine((schedule, ctx) => {
    // Runs even when a field was refused: only a schedule whose every field passed is generated.
    const whole = isTimeZone(schedule.timeZone) && localTime.safeParse(schedule.startTime).success && day.safeParse(schedule.firstDate).success
      && Array.isArray(schedule.durations) && schedule.durations.every((ms) => typeof ms === 'number')
      && Number.isInteger(schedule.everyDays) && schedule.everyDays >= 1 && schedule.everyDays <= 90;
    if (!whole) return;
    // The last window's date must still be a calendar date the store and the API can write.
    const lastDay = Date.parse(`${schedule.firstDate}T00:00:00Z`) + (schedule.durations.length - 1) * schedule.everyDays * DAY_MS;
    if (lastDay > LAST_DAY) {
      ctx.addIssue({ code: 'custom', path: ['firstDate'], message: 'the schedule runs past 9999-12-31: start it earlier' });
      return;
    }
    const { overlapsAt } = generateBrownouts({ ...schedule, durationsMs: schedule.durations });
    if (overlapsAt !== null) ctx.addIssue({ code: 'custom', path: ['durations', overlapsAt], message: `runs into the next window, ${schedule.everyDays} day${schedule.everyDays === 1 ? '' : 's'} later: make it shorter or everyDays longer` });
  });

export type BrownoutScheduleInput = z.output<typeof brownoutScheduleSchema>;

const exemptionSchema = z
  .object({
    integration: z.string().trim().min(1).max(128),
    /** The last day (UTC) the exemption holds; it lapses by itself after it. */
    until: day,
    note: z.string().max(500).nullable().optional(),
  })
  .strict();

const gateSchema = z
  .object({
    /** The cut waits no longer than this day, whatever the usage. */
    backstopDate: day,
    /** The cut also waits while the plan's work share is above this. */
    maxShare: z.number().gt(0, 'must be above 0').lt(1, 'must be below 1 (0.01 is 1%)').nullable().default(null),
  })
  .strict();

const planFields = {
  name: z.string().trim().min(1).max(200),
  scope: scopeSchema,
  announceDate: day,
  retireDate: day,
  targetShare: z.number().gt(0, 'must be above 0').lt(1, 'must be below 1 (0.005 is 0.5%)'),
  basis: z.enum(SHARE_BASES),
  policyUrl: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).nullable(),
  brownouts: z.array(brownoutSchema).max(100),
  brownoutSchedule: brownoutScheduleSchema,
  action: z.enum(PLAN_ACTIONS),
  blockNewCallersFrom: day.nullable(),
  quietDays: z.number().int('must be a whole number of days').min(1).max(3650),
  gate: gateSchema.nullable(),
  exemptions: z.array(exemptionSchema).max(1000),
  /** Days before each brownout, the block-new date and the cut on which the plan's active callers are told. */
  noticeDays: z
    .array(z.number().int('must be a whole number of days').min(1).max(365))
    .max(10)
    .refine((days) => new Set(days).size === days.length, 'a day is named twice'),
  /** Sent (not stored) to make a deny plan whose scope carries modern traffic: modern clients cannot fall back. */
  acknowledgeRefusingModern: z.literal(true, 'send true, or leave it out'),
};

/** A schedule replaces the list: a request may send one or the other. */
function oneBrownoutSource(input: unknown, ctx: z.RefinementCtx): void {
  if (typeof input === 'object' && input !== null && 'brownouts' in input && 'brownoutSchedule' in input) {
    ctx.addIssue({ code: 'custom', path: ['brownoutSchedule'], message: 'send brownouts or brownoutSchedule, not both: the schedule generates the list' });
  }
}

/** POST /plans (and a plan declared in the config file): name, scope and the two dates are required. */
export const planCreateObject = z
  .object({
    ...planFields,
    targetShare: planFields.targetShare.default(0.005),
    basis: planFields.basis.default(DEFAULT_SHARE_BASIS),
    policyUrl: planFields.policyUrl.default(null),
    brownouts: planFields.brownouts.default([]),
    action: planFields.action.default('observe'),
    blockNewCallersFrom: planFields.blockNewCallersFrom.default(null),
    quietDays: planFields.quietDays.default(30),
    gate: planFields.gate.default(null),
    exemptions: planFields.exemptions.default([]),
    noticeDays: planFields.noticeDays.default([]),
    brownoutSchedule: planFields.brownoutSchedule.optional(),
    acknowledgeRefusingModern: planFields.acknowledgeRefusingModern.optional(),
  })
  .strict();

export const planCreateSchema = z.unknown().superRefine(oneBrownoutSource).pipe(planCreateObject);

/** PATCH /plans/:id: any subset, plus `archived`. The object alone is what the API's description shows. */
export const planPatchObject = z.object({ ...planFields, archived: z.boolean() }).partial().strict();

export const planPatchSchema = z
  .unknown()
  .superRefine(oneBrownoutSource)
  .pipe(planPatchObject.refine((patch) => Object.keys(patch).length > 0, 'send at least one field to change'));

export type PlanCreate = z.output<typeof planCreateSchema>;
export type PlanPatch = z.output<typeof planPatchSchema>;

/** The fields the rules between fields read, as a whole plan has them after a create or a change. */
export interface PlanCoherenceFields {
  announceDate: string;
  retireDate: string;
  action: (typeof PLAN_ACTIONS)[number];
  policyUrl: string | null;
  blockNewCallersFrom: string | null;
  gate: { backstopDate: string } | null;
  exemptions: readonly { integration: string }[];
  scope: { kind: string; value: string };
  /** True when the request acknowledged that the plan refuses modern clients. */
  acknowledgeRefusingModern?: boolean;
}

/**
 * The rules between fields, checked on the whole plan: the first broken one as the field it names
 * and why, or undefined. Dates in the past are fine: such a plan is enforced at once.
 */
export function planIncoherence(plan: PlanCoherenceFields): { field: string; message: string } | undefined {
  if (plan.retireDate <= plan.announceDate) return { field: 'retireDate', message: 'must be after announceDate: the Sunset date is never before the Deprecation date' };
  if (plan.blockNewCallersFrom !== null && plan.blockNewCallersFrom < plan.announceDate) {
    return { field: 'blockNewCallersFrom', message: 'must not be before announceDate: newcomers are blocked only once the retirement is announced' };
  }
  if (plan.blockNewCallersFrom !== null && plan.blockNewCallersFrom > plan.retireDate) {
    return { field: 'blockNewCallersFrom', message: 'must not be after retireDate: from the cut every caller is refused' };
  }
  if (plan.gate !== null && plan.gate.backstopDate < plan.retireDate) return { field: 'gate.backstopDate', message: 'must not be before retireDate: the backstop ends a wait that starts at the retire date' };
  if ((plan.action === 'warn' || plan.action === 'deny') && plan.policyUrl === null) {
    return { field: 'policyUrl', message: `required when action is ${plan.action}: the Link header and every refusal point callers to it` };
  }
  if (plan.action === 'deny' && scopeCarriesModern(plan.scope) && plan.acknowledgeRefusingModern !== true) {
    const what = plan.scope.kind === 'transport' ? `the ${plan.scope.value} transport carries modern clients` : `${plan.scope.value} is not a legacy version`;
    return { field: 'acknowledgeRefusingModern', message: `required (true) for a deny plan on this scope: ${what}, and a modern client cannot fall back, so the plan would refuse it` };
  }
  const seen = new Set<string>();
  for (const [index, exemption] of plan.exemptions.entries()) {
    if (seen.has(exemption.integration)) return { field: `exemptions.${index}.integration`, message: `${exemption.integration} is exempted twice` };
    seen.add(exemption.integration);
  }
  return undefined;
}
