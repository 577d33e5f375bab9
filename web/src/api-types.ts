/** The JSON shapes of /api/v1 the dashboard reads (server/api/to-json.ts and the routers). */

export type PlanStatusKind = 'met' | 'on-track' | 'at-risk' | 'off-track' | 'unknown';
export type ScopeKind = 'era' | 'transport' | 'version';
export type IntegrationStatus = 'unknown' | 'contacted' | 'migrating' | 'exempt' | 'done';
export type VolumeGroup = 'era' | 'transport' | 'version';

export interface ApiErrorBody {
  error: { code: string; message: string; parameter?: string };
}

export interface SharePoint {
  start: string;
  served: number;
  inScope: number;
  share: number | null;
  refused: number;
  failed: number;
  probes: number;
  legacyIntegrations: number | null;
}

export interface Trend {
  kind: 'fitted' | 'not-enough-data';
  weeks: number;
  reason: string;
  currentShare: number | null;
  significantDecrease: boolean;
  slopePerWeek: number | null;
  flat: boolean;
  projection: { kind: 'reached' | 'crossing' | 'flat' | 'not-falling' | 'too-far'; date?: string } | null;
  projectedDate: string | null;
  line: { start: string; share: number }[];
}

export interface PlanStatus {
  status: PlanStatusKind;
  reason: string;
  projectedDate: string | null;
  daysToRetire: number;
}

export interface Plan {
  id: number;
  name: string;
  scope: { kind: ScopeKind; value: string };
  announceDate: string;
  retireDate: string;
  targetShare: number;
  policyUrl: string | null;
  brownouts: { startsAt: string; endsAt: string; note: string | null }[];
  archivedAt: string | null;
  status: PlanStatus;
  currentShare: number | null;
  trend: Trend;
}

export interface ShareResponse {
  scope: { kind: ScopeKind; value: string };
  bucket: 'day' | 'week';
  from: string;
  to: string;
  target: number;
  currentShare: number | null;
  series: SharePoint[];
  trend: Trend;
  plan?: Plan;
}

export interface PlansResponse {
  plans: Plan[];
}

export interface PlanDeadline {
  planId: number;
  planName: string;
  state: 'ok' | 'fix-by' | 'overdue';
  label: string;
  lastUsedDay: string | null;
}

export interface Integration {
  key: string;
  source: string;
  identifiable: boolean;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  status: IntegrationStatus;
  notes: string | null;
  claimsToBe: { name: string; version: string | null } | null;
  firstSeen: string | null;
  lastSeen: string | null;
  lastLegacySeen: string | null;
  legacyServed: number;
  served: number;
  legacyShare: number | null;
  deadlines: PlanDeadline[];
}

export interface IntegrationsResponse {
  windowDays: number;
  split: { identifiable: number; unknown: number; total: number; identifiableShare: number | null };
  integrations: Integration[];
}

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
