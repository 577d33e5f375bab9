import { Router } from 'express';
import { z } from 'zod';
import type { Store } from '../store/store.js';
import { parseInput } from './parse-input.js';
import { auditEventToJson } from './to-json.js';

export interface AuditRouterDeps {
  store: () => Store;
}

export const MAX_AUDIT_PAGE = 500;

export const auditQuery = z
  .object({
    subject: z.string().min(1).max(300).optional(),
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(100),
  })
  .strict();

/** The audit trail: every change to plans, exemptions, pauses, bridge revocations and callers, newest first. */
export function createAuditRouter(deps: AuditRouterDeps): Router {
  const router = Router();
  router.get('/audit', async (req, res) => {
    const query = parseInput(auditQuery, req.query, 'query');
    // One more than asked says whether there is a next page.
    const events = await deps.store().listAuditEvents({ ...query, limit: query.limit + 1 });
    const page = events.slice(0, query.limit);
    res.json({ events: page.map(auditEventToJson), next: events.length > query.limit ? page[page.length - 1]!.id : null });
  });
  return router;
}
