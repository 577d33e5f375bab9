import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { BUCKET_MS, bucketStart } from '../lib/time-bucket.js';

/** `from` and `to` as ISO times, both optional: a span of whole UTC days read from per-day rows. */
export const daySpanQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/**
 * The span a query asks for: `to` (default: the end of today, UTC) and `from` (default: `days` days
 * before it), `from` taken back to the start of its UTC day. A `from` not before `to` is a 400 naming it.
 */
export function resolveDaySpan(query: z.infer<typeof daySpanQuery>, now: number, days: number): { from: number; to: number } {
  const to = query.to === undefined ? bucketStart(now, 'day') + BUCKET_MS.day : Date.parse(query.to);
  const from = query.from === undefined ? to - days * BUCKET_MS.day : Date.parse(query.from);
  if (from >= to) throw new AppError('invalid_parameter', 'from must be before to', 'from');
  return { from: bucketStart(from, 'day'), to };
}
