import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { CONTACT_KINDS } from '../store/records/caller-contact-record.js';
import type { Store } from '../store/store.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { contactToJson, noticeToJson } from './to-json.js';

export interface NoticesRouterDeps {
  store: () => Store;
  now: () => number;
}

export const keyParam = z.object({ key: z.string().min(1).max(256) });
export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const contactBody = z
  .object({
    kind: z.enum(CONTACT_KINDS),
    note: z.string().trim().min(1, 'say what was agreed: it is shown beside the caller').max(2000),
    planId: z.number().int().positive().nullable().default(null),
  })
  .strict();

/** What callers were told: the notices sent to each, the contacts made by hand, and recording one. */
export function createNoticesRouter(deps: NoticesRouterDeps): Router {
  const router = Router();

  router.get('/integrations/:key/notices', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    const store = deps.store();
    res.json({ notices: (await store.listCallerNotices({ integrations: [key] })).map(noticeToJson), contacts: (await store.listCallerContacts([key])).map(contactToJson) });
  });

  router.post('/integrations/:key/contacts', async (req, res) => {
    const { key } = parseInput(keyParam, req.params, 'path');
    const input = parseInput(contactBody, req.body);
    const store = deps.store();
    if ((await store.getIntegration(key)) === undefined) throw new AppError('not_found', `no integration ${key}`, 'key');
    if (input.planId !== null && (await store.getPlan(input.planId)) === undefined) throw new AppError('not_found', `planId: no plan ${input.planId}`, 'planId');
    res.status(201).json(contactToJson(await store.insertCallerContact({ integration: key, ...input }, deps.now(), actorOf(res))));
  });

  router.get('/plans/:id/notices', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    if ((await deps.store().getPlan(id)) === undefined) throw new AppError('not_found', `no plan ${id}`, 'id');
    res.json({ notices: (await deps.store().listCallerNotices({ planId: id })).map(noticeToJson) });
  });
  return router;
}
