/**
 * The JSON shapes of /api/v1 that the dashboard reads, as the server builds them: types only, so
 * web/ imports them and a change here that breaks the page fails the dashboard's typecheck.
 */
import type { MigrationState } from '../analysis/migration-state.js';
import type { DigestJson } from '../alerts/format-digest-payload.js';
import type { digestRecordToJson } from './digest-router.js';
import type { TrafficSeries } from '../store/records/traffic-series.js';
import type {
  auditEventToJson,
  contactToJson,
  noticeToJson,
  alertListingToJson,
  alertsToJson,
  enforcementToJson,
  fleetToJson,
  integrationToJson,
  integrationsToJson,
  planViewToJson,
  shareToJson,
  statusToJson,
  trendToJson,
} from './to-json.js';

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
/** GET /traffic sends the store's series as it is: its times are already ISO strings. */
export type TrafficJson = TrafficSeries;
export type AlertJson = ReturnType<typeof alertListingToJson>;
/** GET /alerts. */
export type AlertsJson = ReturnType<typeof alertsToJson>;
/** GET /fleet, and POST /fleet/check after its checks. */
export type FleetJson = ReturnType<typeof fleetToJson>;
export type FleetNodeJson = FleetJson['nodes'][number];
export type SidecarJson = FleetJson['sidecars'][number];

/**
 * GET /plans/:id/dry-run: who a cut of the plan's scope on `at` would refuse, from the stored counts
 * of its quiet days up to min(at, now). The dashboard reads exactly these names.
 */
export interface DryRunJson {
  planId: number;
  /** YYYY-MM-DD, the cut date asked about. */
  at: string;
  /** ISO times of the counts used; `days` is the window's length, fractional when it ends now. */
  window: { from: string; to: string; days: number };
  /** Share of served work requests that would be refused; null when nothing was served. */
  refusedShare: number | null;
  totals: { callers: number; refusedCallers: number; savedCallers: number; refusedRequests: number; servedRequests: number };
  /** Identifiable callers first, then by requests, most first. */
  callers: DryRunCallerJson[];
  /** The would-block counts recorded for the same callers and window; only for a plan in dryrun. */
  live: { wouldBlock: number; byCaller: Record<string, number> } | null;
}

export interface DryRunCallerJson {
  integration: string;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  identifiable: boolean;
  /** Served work requests in scope in the window. */
  requests: number;
  requestsPerDay: number;
  /** ISO: the start of the last UTC day with served work in scope. */
  lastSeen: string | null;
  versions: string[];
  transports: string[];
  /** Whether it has started to move, over the same window: `migrating` was served modern work beside its legacy work. */
  migration: MigrationState | null;
  /** What it was told: this plan's notices delivered to it, the last one's time, and the last contact made by hand (ISO). */
  told: { notices: number; lastNoticeAt: string | null; lastContactAt: string | null };
  /** The exemption covering `at`, if any: the caller would pass. */
  savedBy: { until: string; note: string | null } | null;
}
