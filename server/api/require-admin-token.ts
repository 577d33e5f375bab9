import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../lib/app-error.js';
import { setActor } from './actor-of.js';

/**
 * When an admin token is configured, every API call must carry it as a bearer token. Who made a
 * call is kept in `res.locals` for the changes that record it (see actorOf).
 */
export function requireAdminToken(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return (req, res, next) => {
    if (expected === undefined) {
      setActor(res, 'api (no admin token)');
      return next();
    }
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = Buffer.from(match?.[1] ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      setActor(res, 'admin token');
      return next();
    }
    res.setHeader('www-authenticate', 'Bearer realm="mcp-sunset"');
    next(new AppError('unauthorized', 'this API needs the admin token: send Authorization: Bearer <token>'));
  };
}
