import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../lib/app-error.js';

/** When an admin token is configured, every API call must carry it as a bearer token. */
export function requireAdminToken(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return (req, res, next) => {
    if (expected === undefined) return next();
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = Buffer.from(match?.[1] ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res.setHeader('www-authenticate', 'Bearer realm="mcp-sunset"');
    next(new AppError('unauthorized', 'this API needs the admin token: send Authorization: Bearer <token>'));
  };
}
