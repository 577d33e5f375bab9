/**
 * The JSON shapes of /api/v1 the dashboard reads. The answers come from the server's own types
 * (server/api/api-json.ts), so a server change that breaks the page fails the typecheck; only the
 * error body, which the page reads defensively, is written out here.
 */

import type { DigestResponseJson, IntegrationJson, PlanJson, TrafficJson } from '../../server/api/api-json.js';

export type { DryRunJson } from '../../server/api/api-json.js';

export type PlanStatusKind = PlanJson['status']['status'];
export type ScopeKind = PlanJson['scope']['kind'];
export type PlanAction = PlanJson['action'];
export type Enforcement = PlanJson['enforcement'];
export type TimelineWindow = Enforcement['timeline'][number];
export type IntegrationStatus = IntegrationJson['status'];
/** The dimensions the volume chart offers, of those /traffic groups by. */
export type VolumeGroup = Extract<TrafficJson['groupBy'], 'era' | 'transport' | 'version'>;
export type DigestPlan = DigestResponseJson['plans'][number];
export type DigestCaller = DigestResponseJson['callers']['moved'][number];
export type DigestRemainingCaller = DigestResponseJson['callers']['remaining'][number];

export interface ApiErrorBody {
  error: { code: string; message: string; parameter?: string };
}

export type {
  AlertJson as Alert,
  AlertsJson as AlertsResponse,
  AuditEventJson as AuditEvent,
  AuditJson as AuditResponse,
  CallerJoinJson as CallerJoinResponse,
  CallerPeopleJson as CallerPeopleResponse,
  CallerToldJson as CallerToldResponse,
  DigestRecordJson as DigestRecord,
  DigestResponseJson as DigestResponse,
  FleetJson as FleetResponse,
  FleetNodeJson as FleetNode,
  SidecarJson as Sidecar,
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
  UnknownBaseJson as UnknownBaseResponse,
} from '../../server/api/api-json.js';
