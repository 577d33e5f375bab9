/**
 * The JSON shapes of /api/v1 the dashboard reads. Share, plans and integrations come from the
 * server's own types (server/api/api-json.ts), so a server change that breaks the page fails the
 * typecheck; the rest mirror the routers by hand.
 */

import type { IntegrationJson, PlanJson } from '../../server/api/api-json.js';

export type PlanStatusKind = PlanJson['status']['status'];
export type ScopeKind = PlanJson['scope']['kind'];
export type IntegrationStatus = IntegrationJson['status'];
export type VolumeGroup = 'era' | 'transport' | 'version';

export interface ApiErrorBody {
  error: { code: string; message: string; parameter?: string };
}

export type {
  IntegrationJson as Integration,
  IntegrationsJson as IntegrationsResponse,
  PlanJson as Plan,
  PlansJson as PlansResponse,
  PlanStatusJson as PlanStatus,
  ShareBasis,
  ShareJson as ShareResponse,
  SharePointJson as SharePoint,
  TrendJson as Trend,
} from '../../server/api/api-json.js';

export interface TrafficResponse {
  bucket: string;
  groupBy: string;
  from: string;
  to: string;
  series: { start: string; counts: Record<string, number> }[];
  totals: Record<string, number>;
}

export interface Alert {
  id: number;
  rule: string;
  subject: string;
  state: 'pending' | 'firing' | 'resolved';
  severity: string;
  summary: string;
  firstFiredAt: string | null;
  lastFiredAt: string | null;
  resolvedAt: string | null;
  lastEvaluatedAt?: string | null;
  /** What the webhooks made of this alert's transitions. */
  deliverySummary?: { delivered: number; failed: number; lastError: string | null; lastAt: string | null };
}

export interface AlertsResponse {
  alerts: Alert[];
}

export interface FleetNode {
  node: string;
  target: string;
  era: 'modern' | 'legacy' | null;
  state: 'ready' | 'unavailable' | 'incompatible' | 'auth-required';
  evidenceClass: string;
  evidenceCode: string;
  detail: string;
  version: string | null;
  supportedVersions: string[];
  legacyAccepted: boolean | null;
  serverInfo: { name: string; version: string } | null;
  latencyMs: number;
  at: string;
  differs: boolean;
  down: boolean;
}

export interface FleetResponse {
  configured: string[];
  checkedAt: string | null;
  expected: string[] | null;
  drift: boolean;
  down: string[];
  nodes: FleetNode[];
}
