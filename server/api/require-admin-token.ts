import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../lib/app-error.js';
import { setActor } from './actor-of.js';

/** A token the API accepts; a named one is who the audit trail says made a change with it. */
export interface AdminToken {
  name: string | null;
  token: string;
}

/** The actor recorded for a change made with this token. */
export function tokenActor(token: AdminToken): string {
  return token.name === null ? 'admin token' : `token:${token.name}`;
}

/**
 * When admin tokens are configured, every API call must carry one as a bearer token. Every token is
 * compared (in constant time), so the answer's timing says nothing about which came close. Who made
 * the call is kept in `res.locals` for the changes that record it (see actorOf).
 */
export function requireAdminToken(tokens: readonly AdminToken[]): RequestHandler {
  const expected = tokens.map((token) => ({ bytes: Buffer.from(token.token), actor: tokenActor(token) }));
  return (req, res, next) => {
    if (expected.length === 0) {
      setActor(res, 'api (no admin token)');
      return next();
    }
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const given = Buffer.from(match?.[1] ?? '');
    let actor: string | undefined;
    for (const token of expected) {
      const same = given.length === token.bytes.length && timingSafeEqual(given, token.bytes);
      if (same && actor === undefined) actor = token.actor;
    }
    if (actor !== undefined) {
      setActor(res, actor);
      return next();
    }
    res.setHeader('www-authenticate', 'Bearer realm="mcp-sunset"');
    next(new AppError('unauthorized', 'this API needs the admin token: send Authorization: Bearer <token>'));
  };
}
