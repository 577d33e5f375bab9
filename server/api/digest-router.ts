import { Router } from 'express';
import { z } from 'zod';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { digestToJson } from '../alerts/format-digest-payload.js';
import type { DigestSender } from '../alerts/run-digest.js';
import { AppError } from '../lib/app-error.js';
import type { DigestRecord } from '../store/records/digest-record.js';
import type { Store } from '../store/store.js';
import { loadDigest } from '../views/load-digest.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { iso } from './to-json.js';

export interface DigestRouterDeps {
  store: () => Store;
  now: () => number;
  thresholds: TrendThresholds;
  top: number;
  /** The dashboard's address and its print view, as readers reach them. */
  links: () => { dashboard: string; print: string };
  /** Undefined without a store: sending then answers 503. */
  sender: DigestSender | undefined;
  /** The schedule this process runs, if it runs one. */
  schedule: { expression: string; timeZone: string; nextRun: () => number | null } | null;
}

export const MAX_DIGEST_PAGE = 100;

export const listQuery = z
  .object({
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(MAX_DIGEST_PAGE).default(20),
  })
  .strict();
export const sendBody = z.object({}).strict().optional();
export const digestQuery = z.object({}).strict();
export const idParam = z.object({ id: z.coerce.number().int().positive() });

export function digestRecordToJson(record: DigestRecord) {
  return {
    id: record.id,
    kind: record.kind,
    node: record.node,
    requestedBy: record.requestedBy,
    period: { from: iso(record.periodFrom), to: iso(record.periodTo) },
    claimedAt: iso(record.claimedAt),
    finishedAt: iso(record.finishedAt),
    status: record.status,
    deliveries: record.deliveries,
    summary: record.summary,
  };
}

/** The weekly digest: read it as of now, send it now, and list those sent. */
export function createDigestRouter(deps: DigestRouterDeps): Router {
  const router = Router();

  router.get('/digest', async (req, res) => {
    parseInput(digestQuery, req.query, 'query');
    const store = deps.store();
    const digest = await loadDigest(store, { now: deps.now(), thresholds: deps.thresholds, top: deps.top, links: deps.links() });
    const [last] = await store.listDigests({ limit: 1 });
    const schedule = deps.schedule === null ? null : { expression: deps.schedule.expression, timeZone: deps.schedule.timeZone, nextRun: iso(deps.schedule.nextRun()) };
    res.json({ ...digestToJson(digest), schedule, lastSent: last === undefined ? null : digestRecordToJson(last) });
  });

  router.post('/digest/send', async (req, res) => {
    parseInput(sendBody, req.body);
    if (deps.sender === undefined) throw new AppError('store_unavailable', 'the digest needs the database, which could not be opened; see /healthz');
    const result = await deps.sender.send({ kind: 'on-demand', requestedBy: actorOf(res) });
    if (!result.sent) throw new AppError('conflict', 'a digest was sent from this node at this same instant; ask again');
    res.json({ digest: { ...digestRecordToJson(result.digest), content: result.digest.content } });
  });

  router.get('/digests', async (req, res) => {
    const query = parseInput(listQuery, req.query, 'query');
    const rows = await deps.store().listDigests({ ...query, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    res.json({ digests: page.map(digestRecordToJson), next: rows.length > query.limit ? page[page.length - 1]!.id : null });
  });

  router.get('/digests/:id', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    const [row] = await deps.store().listDigests({ before: id + 1, limit: 1 });
    if (row === undefined || row.id !== id) throw new AppError('not_found', `no digest ${id}`, 'id');
    res.json({ ...digestRecordToJson(row), content: row.content });
  });
  return router;
}
