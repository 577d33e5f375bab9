import { z } from 'zod';
import { BUCKETS, BUCKET_MS } from '../lib/time-bucket.js';
import { ERAS, MESSAGE_KINDS, OUTCOMES, REASONS, TRANSPORTS } from '../protocol/vocabulary.js';
import { TRAFFIC_DIMENSIONS, type TrafficQuery } from '../store/records/traffic-series.js';

/** How far back `from` defaults to, per bucket: enough to read, small enough to draw. */
const DEFAULT_SPAN_MS = { minute: 3_600_000, hour: 86_400_000, day: 30 * 86_400_000 } as const;
/** Most buckets one answer may hold: a year of hours, with room to spare. */
export const MAX_TRAFFIC_BUCKETS = 10_000;

const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO-8601 time such as 2026-11-30T00:00:00Z' });
const label = z.string().min(1).max(256);

export function trafficQuerySchema(now: number) {
  return z
    .object({
      from: isoTime.optional(),
      to: isoTime.optional(),
      bucket: z.enum(BUCKETS).default('hour'),
      groupBy: z.enum(TRAFFIC_DIMENSIONS).default('era'),
      era: z.enum(ERAS).optional(),
      transport: z.enum(TRANSPORTS).optional(),
      reason: z.enum(REASONS).optional(),
      kind: z.enum(MESSAGE_KINDS).optional(),
      outcome: z.enum(OUTCOMES).optional(),
      version: label.optional(),
      method: label.optional(),
      integration: label.optional(),
      node: label.optional(),
    })
    .strict()
    .transform((q, ctx): TrafficQuery => {
      const to = q.to === undefined ? now : Date.parse(q.to);
      const from = q.from === undefined ? to - DEFAULT_SPAN_MS[q.bucket] : Date.parse(q.from);
      if (from >= to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be earlier than to' });
      if ((to - from) / BUCKET_MS[q.bucket] > MAX_TRAFFIC_BUCKETS) {
        ctx.addIssue({ code: 'custom', path: ['bucket'], message: `range holds more than ${MAX_TRAFFIC_BUCKETS} ${q.bucket} buckets; use a coarser bucket or a shorter range` });
      }
      const { from: _f, to: _t, bucket, groupBy, ...filters } = q;
      return { from, to, bucket, groupBy, filters };
    });
}
