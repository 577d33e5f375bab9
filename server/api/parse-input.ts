import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';

/**
 * Validates request input, throwing an AppError that names the first offending parameter. A fault
 * of the input as a whole (an empty change, say) names `whole`: the body, unless said otherwise.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, whole = 'body'): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const parameter = keys[0] ?? (issue.path.map(String).join('.') || whole);
  const message = keys.length > 0 ? `unknown parameter: ${keys.join(', ')}` : `${parameter}: ${issue.message}`;
  throw new AppError('invalid_parameter', message, parameter);
}
