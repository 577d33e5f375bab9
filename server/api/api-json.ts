/**
 * The JSON shapes of /api/v1 that the dashboard reads, as the server builds them: types only, so
 * web/ imports them and a change here that breaks the page fails the dashboard's typecheck.
 */
import type { DigestJson } from '../alerts/format-digest-payload.js';
import type { digestRecordToJson } from './digest-router.js';
import type { TrafficSeries } from '../store/records/traffic-series.js';
import type {
  alertToJson,
  auditEventToJson,
  bridgeRevocationToJson,
  contactToJson,
  deliveryToJson,
  pauseToJson,
  noticeToJson,
  alertListingToJson,
  alertsToJson,
  enforcementToJson,
  fleetToJson,
  integrationToJson,
  integrationsToJson,
  callerPeopleToJson,
  aliasToJson,
  unknownBaseToJson,
  planViewToJson,
  shareToJson,
  statusToJson,
  trendToJson,
} from './to-json.js';

// to-json.ts builds the dry run's shape, so it lives in a module of its own that both can import.
export type { DryRunCallerJson, DryRunJson } from './dry-run-json.js';

export type NoticeJson = ReturnType<typeof noticeToJson>;
/** A digest as sent, kept: GET /digests lists them, GET /digests/:id adds `content`. */
export type DigestRecordJson = ReturnType<typeof digestRecordToJson>;
/** GET /digest: the digest as of now (what the webhooks are sent), with the schedule and the last one sent. */
export type DigestResponseJson = DigestJson & {
  schedule: { expression: string; timeZone: string; nextRun: string | null } | null;
  lastSent: DigestRecordJson | null;
};
export type ContactJson = ReturnType<typeof contactToJson>;
/** GET /integrations/:key/notices: newest first. */
export interface CallerToldJson {
  notices: NoticeJson[];
  contacts: ContactJson[];
}
export type AuditEventJson = ReturnType<typeof auditEventToJson>;
/** GET /audit: a page of the newest changes first; `next` is the `before` of the next page, or null. */
export interface AuditJson {
  events: AuditEventJson[];
  next: number | null;
}
export type ShareBasis = ShareJson['basis'];
export type SharePointJson = ShareJson['series'][number];
export type TrendJson = ReturnType<typeof trendToJson>;
export type PlanStatusJson = ReturnType<typeof statusToJson>;
/** A plan as GET /plans lists it; GET /plans/:id adds the daily series. */
export type PlanJson = ReturnType<typeof planViewToJson>;
/** A plan's timeline, gate, exemptions and phase, inside PlanJson. */
export type EnforcementJson = ReturnType<typeof enforcementToJson>;
/** GET /share; with `plan`, the plan's judgement too. */
export type ShareJson = ReturnType<typeof shareToJson> & { plan?: PlanJson };
export interface PlansJson {
  plans: PlanJson[];
}
export type IntegrationJson = ReturnType<typeof integrationToJson>;
export type IntegrationsJson = ReturnType<typeof integrationsToJson>;
/** GET /unknown-base: served work no trusted mechanism named, by what its clients claim to be (claims, deciding nothing). */
export type UnknownBaseJson = ReturnType<typeof unknownBaseToJson>;
/** A name joined into a caller (DELETE /integrations/:key/aliases/:alias answers the one undone). */
export type CallerAliasJson = ReturnType<typeof aliasToJson>;
/** POST /integrations/:key/aliases: the names joined now, and every name joined into the caller. */
export interface CallerJoinJson {
  caller: string;
  joined: CallerAliasJson[];
  aliases: string[];
}
/** GET /integrations/:key/people: distinct people per UTC day, by era and in all. */
export type CallerPeopleJson = ReturnType<typeof callerPeopleToJson>;
/** GET /traffic sends the store's series as it is: its times are already ISO strings. */
export type TrafficJson = TrafficSeries;
export type AlertJson = ReturnType<typeof alertListingToJson>;
/** GET /alerts. */
export type AlertsJson = ReturnType<typeof alertsToJson>;
/** GET /fleet, and POST /fleet/check after its checks. */
export type FleetJson = ReturnType<typeof fleetToJson>;
export type FleetNodeJson = FleetJson['nodes'][number];
export type SidecarJson = FleetJson['sidecars'][number];

/** GET /alerts/:id: the alert with every delivery of its transitions, newest first. */
export type AlertDetailJson = ReturnType<typeof alertToJson> & { deliveries: ReturnType<typeof deliveryToJson>[] };
/** POST /alerts/evaluate: what moved, what the webhooks made of it, the notices sent, and the alerts open afterwards. */
export interface AlertEvaluationJson {
  evaluatedAt: string;
  transitions: { kind: 'firing' | 'resolved'; alert: ReturnType<typeof alertToJson>; deliveries: ReturnType<typeof deliveryToJson>[] }[];
  notices: NoticeJson[];
  alerts: AlertJson[];
}
/** GET /plans/:id/notices. */
export interface PlanNoticesJson {
  notices: NoticeJson[];
}
export type PauseJson = ReturnType<typeof pauseToJson>;
/** GET /pauses, POST /pauses. */
export interface PausesJson {
  pauses: PauseJson[];
}
/** POST /pauses/resume: the pauses it ended. */
export interface ResumedPausesJson {
  resumed: PauseJson[];
}
export type BridgeRevocationJson = ReturnType<typeof bridgeRevocationToJson>;
/** GET /bridge/revocations: those still in force. */
export interface BridgeRevocationsJson {
  revocations: BridgeRevocationJson[];
}
/** GET /digests: newest first; `next` is the `before` of the next page, or null. */
export interface DigestsJson {
  digests: DigestRecordJson[];
  next: number | null;
}
/** GET /digests/:id: the digest as it was sent. */
export type DigestDetailJson = DigestRecordJson & { content: Record<string, unknown> };
/** POST /digest/send. */
export interface DigestSentJson {
  digest: DigestDetailJson;
}
/** Every error: a code, a message, and the parameter at fault when one is. */
export interface ApiErrorJson {
  error: { code: string; message: string; parameter?: string };
}
