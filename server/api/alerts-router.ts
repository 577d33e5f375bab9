import { Router } from 'express';
import { z } from 'zod';
import type { AlertRun, AlertRunner } from '../alerts/run-alerts.js';
import { AppError } from '../lib/app-error.js';
import { ALERT_STATES, type AlertRecord } from '../store/records/alert-record.js';
import type { Store } from '../store/store.js';
import { parseInput } from './parse-input.js';
import { alertListingToJson, alertsToJson, alertToJson, deliveryToJson, iso, noticeToJson } from './to-json.js';

export interface AlertsRouterDeps {
  store: () => Store;
  /** Undefined when the store could not be opened: evaluating then answers 503. */
  runner: AlertRunner | undefined;
}

export const listQuery = z.object({ state: z.enum(ALERT_STATES).optional() }).strict();
export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const evaluateBody = z.object({}).strict().optional();

function transitionToJson(transition: AlertRun['transitions'][number]) {
  return { kind: transition.kind, alert: alertToJson(transition.alert), deliveries: transition.deliveries.map(deliveryToJson) };
}

/** Alerts: list by state, read one with its deliveries, evaluate the rules now. */
export function createAlertsRouter(deps: AlertsRouterDeps): Router {
  const router = Router();
  const list = (state?: AlertRecord['state']) => deps.store().listAlerts(state === undefined ? {} : { state });

  router.get('/alerts', async (req, res) => {
    const { state } = parseInput(listQuery, req.query, 'query');
    res.json(alertsToJson(await list(state)));
  });

  router.post('/alerts/evaluate', async (req, res) => {
    parseInput(evaluateBody, req.body);
    if (deps.runner === undefined) throw new AppError('store_unavailable', 'alerts need the database, which could not be opened; see /healthz');
    const run = await deps.runner.run();
    const open = (await list()).filter((a) => a.state !== 'resolved').map(alertListingToJson);
    res.json({ evaluatedAt: iso(run.evaluatedAt), transitions: run.transitions.map(transitionToJson), notices: run.notices.map((sent) => noticeToJson(sent.notice)), alerts: open });
  });

  router.get('/alerts/:id', async (req, res) => {
    const { id } = parseInput(idParam, req.params, 'path');
    const alert = await deps.store().getAlert(id);
    if (alert === undefined) throw new AppError('not_found', `no alert ${id}`, 'id');
    const { deliveries, ...rest } = alert;
    res.json({ ...alertToJson(rest), deliveries: deliveries.map(deliveryToJson) });
  });
  return router;
}
