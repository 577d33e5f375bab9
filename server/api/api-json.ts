/**
 * The JSON shapes of /api/v1 that the dashboard reads, as the server builds them: types only, so
 * web/ imports them and a change here that breaks the page fails the dashboard's typecheck.
 */
import type { listTraffic } from '../store/list-traffic.js';
import type {
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
export type TrafficJson = ReturnType<typeof listTraffic>;
export type AlertJson = ReturnType<typeof alertListingToJson>;
/** GET /alerts. */
export type AlertsJson = ReturnType<typeof alertsToJson>;
/** GET /fleet, and POST /fleet/check after its checks. */
export type FleetJson = ReturnType<typeof fleetToJson>;
export type FleetNodeJson = FleetJson['nodes'][number];
