/** What pausing and resuming plans take, through the API and the command line alike. */
import { z } from 'zod';
import { parseDuration } from '../lib/parse-duration.js';

/** The longest pause: one that must last longer is a change of plan, made by editing it. */
export const MAX_PAUSE_MS = 30 * 86_400_000;

/** The longest reason kept. */
export const MAX_PAUSE_REASON = 500;

const planIds = z.union([z.literal('all'), z.array(z.number().int().positive()).min(1).max(100)], { message: 'expected "all" or a list of plan ids' });

export const pauseDuration = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    ctx.addIssue({ code: 'custom', message: 'expected a span such as 30m, 24h, 3d or 1d12h' });
    return z.NEVER;
  }
  if (ms > MAX_PAUSE_MS) {
    ctx.addIssue({ code: 'custom', message: 'at most 30d: a longer pause is a change of plan, made by editing it' });
    return z.NEVER;
  }
  return ms;
});

export const pauseReason = z.string().trim().min(1, 'say why: it is shown on the timeline and in the alerts').max(MAX_PAUSE_REASON);

export const pauseCreateSchema = z.object({ plans: planIds, for: pauseDuration, reason: pauseReason }).strict();
export const resumeSchema = z.object({ plans: planIds }).strict();
