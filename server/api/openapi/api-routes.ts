/**
 * Every route of /api/v1, as data: its inputs are the zod schemas the route validates with (so the
 * contract cannot say one thing while the route checks another), and its answers name the types the
 * route builds them as (server/api/api-json.ts), from which the document's schemas are generated.
 */
import type { z } from 'zod';
import { evaluateBody, idParam as alertIdParam, listQuery as alertListQuery } from '../alerts-router.js';
import { auditQuery } from '../audit-router.js';
import { revocationBody } from '../bridge-revocations-router.js';
import { idParam as digestIdParam, listQuery as digestListQuery, sendBody } from '../digest-router.js';
import { checkBody, fleetQuery } from '../fleet-router.js';
import { aliasParam, joinBody, keyParam, pageSchema, patchSchema, peopleQuery } from '../integrations-router.js';
import { unknownBaseQuery } from '../unknown-base-router.js';
import { contactBody } from '../notices-router.js';
import { pauseCreateSchema, resumeSchema } from '../pause-input-schema.js';
import { listQuery as pauseListQuery } from '../pauses-router.js';
import { planCreateObject, planPatchObject } from '../plan-input-schema.js';
import { dryRunQuery, idParam, listQuery as planListQuery } from '../plans-router.js';
import { digestQuery } from '../digest-router.js';
import { shareQuerySchema } from '../share-router.js';
import { trafficQuerySchema } from '../traffic-query-schema.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** One answer: a type of api-json.ts as JSON, or another media type described in words. */
export interface RouteAnswer {
  description: string;
  /** The exported type of server/api/api-json.ts the body is. */
  type?: string;
  /** Besides JSON: e.g. text/csv for the dry run's CSV. */
  alsoAs?: { mediaType: string; description: string };
}

export interface ApiRoute {
  method: HttpMethod;
  /** As Express writes it, under /api/v1: `/plans/:id`. */
  path: string;
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success answers by status. */
  answers: Record<number, RouteAnswer>;
  /** The error statuses this route answers beyond those every route may (400, 401, 403, 415, 421, 500). */
  errors: number[];
}

// Both query schemas are built around `now` (for their defaults); the contract does not depend on it.
const NOW = 0;
const STORE = [503];

export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'get', path: '/traffic', tag: 'traffic', summary: 'Counted messages over a span, bucketed and grouped by one dimension, with totals.', query: trafficQuerySchema(NOW), answers: { 200: { description: 'The series and its totals.', type: 'TrafficJson' } }, errors: STORE },
  { method: 'get', path: '/share', tag: 'traffic', summary: 'The in-scope share curve on a basis with its trend; with `plan`, the plan\'s judgement too.', query: shareQuerySchema(NOW), answers: { 200: { description: 'The curve and its trend.', type: 'ShareJson' } }, errors: [404, ...STORE] },

  { method: 'get', path: '/plans', tag: 'plans', summary: 'The plans, each with its status, trend and enforcement.', query: planListQuery, answers: { 200: { description: 'Every live plan (and the archived ones when asked).', type: 'PlansJson' } }, errors: STORE },
  { method: 'post', path: '/plans', tag: 'plans', summary: 'Make a plan.', body: planCreateObject, answers: { 201: { description: 'The plan made, with its daily curve.', type: 'PlanJson' } }, errors: STORE },
  { method: 'get', path: '/plans/:id', tag: 'plans', summary: 'One plan, with its daily curve.', params: idParam, answers: { 200: { description: 'The plan.', type: 'PlanJson' } }, errors: [404, ...STORE] },
  { method: 'patch', path: '/plans/:id', tag: 'plans', summary: 'Change a plan: any subset of its fields, or `archived`.', params: idParam, body: planPatchObject, answers: { 200: { description: 'The plan as changed.', type: 'PlanJson' } }, errors: [404, 409, ...STORE] },
  { method: 'delete', path: '/plans/:id', tag: 'plans', summary: 'Archive a plan; its history stays readable.', params: idParam, answers: { 200: { description: 'The plan as archived.', type: 'PlanJson' } }, errors: [404, 409, ...STORE] },
  {
    method: 'get',
    path: '/plans/:id/dry-run',
    tag: 'plans',
    summary: 'Who a cut of the plan\'s scope on a date would refuse, from the stored counts.',
    params: idParam,
    query: dryRunQuery,
    answers: { 200: { description: 'The callers the cut would refuse, and the totals.', type: 'DryRunJson', alsoAs: { mediaType: 'text/csv', description: 'With format=csv: one row per caller, for outreach.' } } },
    errors: [404, ...STORE],
  },
  { method: 'get', path: '/plans/:id/notices', tag: 'notices', summary: 'The notices sent to callers about the plan\'s stages.', params: idParam, answers: { 200: { description: 'Newest first.', type: 'PlanNoticesJson' } }, errors: STORE },

  { method: 'get', path: '/integrations', tag: 'callers', summary: 'The callers with what was measured of them over the last 30 days, most legacy first (`orderBy=people`: most people first).', query: pageSchema, answers: { 200: { description: 'A page of callers, and the identifiable / unknown split.', type: 'IntegrationsJson' } }, errors: STORE },
  { method: 'get', path: '/integrations/:key', tag: 'callers', summary: 'One caller.', params: keyParam, answers: { 200: { description: 'The caller.', type: 'IntegrationJson' } }, errors: [404, ...STORE] },
  { method: 'get', path: '/integrations/:key/people', tag: 'callers', summary: 'A caller\'s distinct people per UTC day, by era and in all (the last 30 days unless asked).', params: keyParam, query: peopleQuery, answers: { 200: { description: 'Days with people, in order.', type: 'CallerPeopleJson' } }, errors: STORE },
  { method: 'get', path: '/unknown-base', tag: 'callers', summary: 'Served work no trusted mechanism named (anonymous), by what its clients claim to be: clientInfo, else the product a User-Agent starts with. Claims only; nothing decides by them.', query: unknownBaseQuery, answers: { 200: { description: 'The claims, most legacy work first, with the share of the unknown base\'s legacy work each holds.', type: 'UnknownBaseJson' } }, errors: STORE },
  { method: 'post', path: '/integrations/:key/aliases', tag: 'callers', summary: 'Join other names (old fingerprints, a gateway\'s name, an mTLS subject, a client id) into this caller: their counts, past and future, are read as its own, and its exemptions cover them. Audited.', params: keyParam, body: joinBody, answers: { 201: { description: 'The names joined now, and all the caller\'s names.', type: 'CallerJoinJson' } }, errors: [404, 409, ...STORE] },
  { method: 'delete', path: '/integrations/:key/aliases/:alias', tag: 'callers', summary: 'Undo a join: the name gets its own history back. Audited.', params: aliasParam, answers: { 200: { description: 'The join undone.', type: 'CallerAliasJson' } }, errors: [404, ...STORE] },
  { method: 'patch', path: '/integrations/:key', tag: 'callers', summary: 'Change a caller\'s display name, owner, contact, status or notes.', params: keyParam, body: patchSchema, answers: { 200: { description: 'The caller as changed.', type: 'IntegrationJson' } }, errors: [404, ...STORE] },
  { method: 'get', path: '/integrations/:key/notices', tag: 'notices', summary: 'What a caller was told, and the contacts made by hand.', params: keyParam, answers: { 200: { description: 'Newest first.', type: 'CallerToldJson' } }, errors: STORE },
  { method: 'post', path: '/integrations/:key/contacts', tag: 'notices', summary: 'Record a contact made by hand (a call, a ticket).', params: keyParam, body: contactBody, answers: { 201: { description: 'The contact recorded.', type: 'ContactJson' } }, errors: [404, ...STORE] },

  { method: 'get', path: '/pauses', tag: 'pauses', summary: 'Every pause, or those in force.', query: pauseListQuery, answers: { 200: { description: 'Newest first.', type: 'PausesJson' } }, errors: STORE },
  { method: 'post', path: '/pauses', tag: 'pauses', summary: 'Pause the refusals of some plans, or all, for a span.', body: pauseCreateSchema, answers: { 201: { description: 'The pauses made.', type: 'PausesJson' } }, errors: [404, ...STORE] },
  { method: 'post', path: '/pauses/resume', tag: 'pauses', summary: 'End the pauses of some plans, or all, now.', body: resumeSchema, answers: { 200: { description: 'The pauses ended.', type: 'ResumedPausesJson' } }, errors: [404, ...STORE] },

  { method: 'get', path: '/alerts', tag: 'alerts', summary: 'The alerts, most recently evaluated first.', query: alertListQuery, answers: { 200: { description: 'The alerts, each with a summary of its deliveries.', type: 'AlertsJson' } }, errors: STORE },
  { method: 'post', path: '/alerts/evaluate', tag: 'alerts', summary: 'Run the rules now, and wait for the webhooks.', body: evaluateBody, answers: { 200: { description: 'What moved, the notices sent, and the alerts open afterwards.', type: 'AlertEvaluationJson' } }, errors: STORE },
  { method: 'get', path: '/alerts/:id', tag: 'alerts', summary: 'One alert with its deliveries.', params: alertIdParam, answers: { 200: { description: 'The alert.', type: 'AlertDetailJson' } }, errors: [404, ...STORE] },

  { method: 'get', path: '/fleet', tag: 'fleet', summary: 'The fleet\'s latest checks and the sidecars writing to the store.', query: fleetQuery, answers: { 200: { description: 'The fleet.', type: 'FleetJson' } }, errors: STORE },
  { method: 'post', path: '/fleet/check', tag: 'fleet', summary: 'Check the configured nodes now.', body: checkBody, answers: { 200: { description: 'The fleet after the checks.', type: 'FleetJson' } }, errors: STORE },

  { method: 'get', path: '/bridge/revocations', tag: 'bridge', summary: 'The legacy-bridge sessions revoked and not yet expired.', answers: { 200: { description: 'The revocations in force.', type: 'BridgeRevocationsJson' } }, errors: STORE },
  { method: 'post', path: '/bridge/revocations', tag: 'bridge', summary: 'Revoke a legacy-bridge session (or extend its revocation).', body: revocationBody, answers: { 201: { description: 'The revocation.', type: 'BridgeRevocationJson' } }, errors: STORE },

  { method: 'get', path: '/audit', tag: 'audit', summary: 'Every audited change, newest first.', query: auditQuery, answers: { 200: { description: 'A page of changes.', type: 'AuditJson' } }, errors: STORE },

  { method: 'get', path: '/digest', tag: 'digest', summary: 'The weekly digest as of now: what the webhooks would be sent.', query: digestQuery, answers: { 200: { description: 'The digest, its schedule and the last one sent.', type: 'DigestResponseJson' } }, errors: STORE },
  { method: 'post', path: '/digest/send', tag: 'digest', summary: 'Compose and send a digest now.', body: sendBody, answers: { 200: { description: 'The digest sent, with how each webhook took it.', type: 'DigestSentJson' } }, errors: [409, ...STORE] },
  { method: 'get', path: '/digests', tag: 'digest', summary: 'The digests sent, newest first.', query: digestListQuery, answers: { 200: { description: 'A page of digests.', type: 'DigestsJson' } }, errors: STORE },
  { method: 'get', path: '/digests/:id', tag: 'digest', summary: 'One digest with what it said.', params: digestIdParam, answers: { 200: { description: 'The digest.', type: 'DigestDetailJson' } }, errors: [404, ...STORE] },
];

/** The answer types the document needs schemas for: every route's, and the error body. */
export function answerTypes(routes: readonly ApiRoute[] = API_ROUTES): string[] {
  return [...new Set([...routes.flatMap((r) => Object.values(r.answers).flatMap((a) => (a.type === undefined ? [] : [a.type]))), 'ApiErrorJson'])].sort();
}
