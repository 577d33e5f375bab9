import type { RequestHandler } from 'express';

/**
 * Makes counts still held in memory readable before any API call is answered, so a read includes
 * every request completed before it (design §6). One middleware for every router: a route added
 * later cannot forget it. A flush never throws; a failing store shows on /healthz instead.
 */
export function flushBeforeRead(flush: () => Promise<void>): RequestHandler {
  return async (_req, _res, next) => {
    await flush();
    next();
  };
}
