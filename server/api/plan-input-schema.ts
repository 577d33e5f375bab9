import { z } from 'zod';
import { TRANSPORTS } from '../protocol/vocabulary.js';
import { DEFAULT_SHARE_BASIS, SHARE_BASES } from '../protocol/work-request.js';

const day = z
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

const planFields = {
  name: z.string().trim().min(1).max(200),
  scope: scopeSchema,
  announceDate: day,
  retireDate: day,
  targetShare: z.number().gt(0, 'must be above 0').lt(1, 'must be below 1 (0.005 is 0.5%)'),
  basis: z.enum(SHARE_BASES),
  policyUrl: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).nullable(),
  brownouts: z.array(brownoutSchema).max(100),
};

/** POST /plans: everything but the target share, basis, policy URL and brownouts is required. */
export const planCreateSchema = z
  .object({
    ...planFields,
    targetShare: planFields.targetShare.default(0.005),
    basis: planFields.basis.default(DEFAULT_SHARE_BASIS),
    policyUrl: planFields.policyUrl.default(null),
    brownouts: planFields.brownouts.default([]),
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
