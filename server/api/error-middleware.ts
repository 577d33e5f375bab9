import type { ErrorRequestHandler } from 'express';
import { AppError, type AppErrorCode } from '../lib/app-error.js';

const STATUS: Readonly<Record<AppErrorCode, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  unauthorized: 401,
  store_unavailable: 503,
  misdirected: 421,
  forbidden_origin: 403,
  unsupported_media_type: 415,
  conflict: 409,
};

/** The one place errors become HTTP answers: a JSON body naming the code, message and parameter. */
export function createErrorMiddleware(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    if (error instanceof AppError) {
      res.status(STATUS[error.code]).json({ error: { code: error.code, message: error.message, parameter: error.parameter } });
      return;
    }
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) onUnexpected(error);
    const message = status === 500 ? 'internal error' : String(error?.message ?? 'bad request');
    res.status(status).json({ error: { code: status === 500 ? 'internal' : 'bad_request', message } });
  };
}
