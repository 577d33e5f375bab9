import type { RequestHandler } from 'express';
import { AppError } from '../lib/app-error.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * A page on another site can send a form or a `text/plain` fetch without asking first; it cannot
 * send `application/json` without a preflight this API never answers. So every mutating call must be
 * JSON (415), and one whose Origin is not the Host it was sent to (or a name in `allowed`) is refused (403).
 */
export function requireSameOriginJson(allowed: readonly string[]): RequestHandler {
  const allowedHosts = new Set(allowed.map((entry) => entry.toLowerCase()));
  return (req, _res, next) => {
    if (!MUTATING.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const from = originHost(origin);
      const host = (req.headers.host ?? '').toLowerCase();
      if (from === undefined || (from !== host && !allowedHosts.has(from) && !allowedHosts.has(from.replace(/:\d+$/, '')))) {
        return next(new AppError('forbidden_origin', `calls that change data are refused from Origin ${JSON.stringify(origin.slice(0, 255))}, which is not this dashboard`, 'Origin'));
      }
    }
    const type = mediaType(req.headers['content-type']);
    if (type !== 'application/json') {
      return next(new AppError('unsupported_media_type', `calls that change data must send content-type: application/json${type === '' ? '' : `, not ${JSON.stringify(type.slice(0, 100))}`}`, 'content-type'));
    }
    next();
  };
}
