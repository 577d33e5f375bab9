import type { RequestHandler } from 'express';

/**
 * The dashboard is one bundled script and one stylesheet from this origin (chart.js included, which
 * styles its canvas through the CSSOM, not style attributes), so nothing inline or foreign is allowed;
 * no other site may frame it or read its answers.
 */
const HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(HEADERS)) res.setHeader(name, value);
    next();
  };
}
