import { z } from 'zod';
import { scopeCarriesModern } from '../protocol/modern-carriers.js';
import { TRANSPORTS } from '../protocol/vocabulary.js';
import { DEFAULT_SHARE_BASIS, SHARE_BASES } from '../protocol/work-request.js';
import { PLAN_ACTIONS } from '../store/sqlite/schema/index.js';

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
  action: z.enum(PLAN_ACTIONS),
  blockNewCallersFrom: day.nullable(),
  quietDays: z.number().int('must be a whole number of days').min(1).max(3650),
  gate: gateSchema.nullable(),
  exemptions: z.array(exemptionSchema).max(1000),
  /** Sent (not stored) to make a deny plan whose scope carries modern traffic: modern clients cannot fall back. */
  acknowledgeRefusingModern: z.literal(true, 'send true, or leave it out'),
};

/** POST /plans (and a plan declared in the config file): name, scope and the two dates are required. */
export const planCreateSchema = z
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
    acknowledgeRefusingModern: planFields.acknowledgeRefusingModern.optional(),
  })
  .strict();

/** PATCH /plans/:id: any subset, plus `archived`. */
export const planPatchSchema = z
  .object({ ...planFields, archived: z.boolean() })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'send at least one field to change');

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
