/**
 * The JSON shapes of /api/v1 the dashboard reads. The answers come from the server's own types
 * (server/api/api-json.ts), so a server change that breaks the page fails the typecheck; only the
 * error body, which the page reads defensively, is written out here.
 */

import type { IntegrationJson, PlanJson, TrafficJson } from '../../server/api/api-json.js';

export type PlanStatusKind = PlanJson['status']['status'];
export type ScopeKind = PlanJson['scope']['kind'];
export type PlanAction = PlanJson['action'];
export type Enforcement = PlanJson['enforcement'];
export type TimelineWindow = Enforcement['timeline'][number];
export type IntegrationStatus = IntegrationJson['status'];
/** The dimensions the volume chart offers, of those /traffic groups by. */
export type VolumeGroup = Extract<TrafficJson['groupBy'], 'era' | 'transport' | 'version'>;

/**
 * GET /plans/:id/dry-run, written out here until the server's type exists: the names and shapes
 * were agreed with the API and must stay exactly these.
 */
export interface DryRunJson {
  planId: number;
  /** YYYY-MM-DD, the cut date asked about. */
  at: string;
  /** ISO times of the counts used. */
  window: { from: string; to: string; days: number };
  /** Share of served work requests that would be refused; null when nothing was served. */
  refusedShare: number | null;
  totals: { callers: number; refusedCallers: number; savedCallers: number; refusedRequests: number; servedRequests: number };
  /** Identifiable first, then by requests, descending. */
  callers: {
    integration: string;
    displayName: string | null;
    owner: string | null;
    contact: string | null;
    identifiable: boolean;
    /** Served work requests in scope in the window. */
    requests: number;
    requestsPerDay: number;
    /** ISO. */
    lastSeen: string | null;
    versions: string[];
    transports: string[];
    /** The exemption covering `at`, if any. */
    savedBy: { until: string; note: string | null } | null;
  }[];
  /** Only for a plan in dry run. */
  live: { wouldBlock: number; byCaller: Record<string, number> } | null;
}

export interface ApiErrorBody {
  error: { code: string; message: string; parameter?: string };
}

export type {
  AlertJson as Alert,
  AlertsJson as AlertsResponse,
  FleetJson as FleetResponse,
  FleetNodeJson as FleetNode,
  IntegrationJson as Integration,
  IntegrationsJson as IntegrationsResponse,
  PlanJson as Plan,
  PlansJson as PlansResponse,
  PlanStatusJson as PlanStatus,
  ShareBasis,
  ShareJson as ShareResponse,
  SharePointJson as SharePoint,
  TrafficJson as TrafficResponse,
  TrendJson as Trend,
} from '../../server/api/api-json.js';
