import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { trafficCell } from '../store/temp-database.js';
import { dayFromNow, legacyPlan, POLICY_URL, sendPlan } from '../support/enforcement-peers.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const DAY = 86_400_000;

interface NoticeBody {
  kind: string;
  summary: string;
  plan: { id: number; name: string; policyUrl: string };
  stage: { kind: string; at: string; daysBefore: number };
  caller: { integration: string; displayName: string | null; owner: string | null; contact: string | null };
  usage: { requests: number; versions: string[] };
}

/**
 * Real callers through the sidecar in front of the SDK's dual-era server, each with its own token,
 * over a seeded history; a deny plan with a brownout ten days ahead tells them 14 and 7 days before.
 */
describe('notices to callers', () => {
  let peer: Peer;
  let receiver: WebhookReceiver;
  let service: TestService;
  let offset = 0;
  const clock = () => Date.now() + offset;
  const keys = new Map<string, string>();
  const config = () => ({
    alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'outreach', url: receiver.url, format: 'json' as const }], maxAttempts: 1, initialBackoffMs: 10 },
  });
  const notices = () => receiver.received.map((r) => r.body as NoticeBody).filter((b) => b.kind === 'notice');
  const evaluate = async () => {
    const response = await fetch(new URL('/api/v1/alerts/evaluate', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { notices: { integration: string; status: string; daysBefore: number }[] }).notices;
  };

  beforeAll(async () => {
    peer = await startV2Server('dual');
    receiver = await startWebhookReceiver();
    service = await startTestService(new URL(peer.url), config(), clock);
    const url = new URL(peer.url.pathname, service.sidecarUrl);
    const known = async () => new Set(((await service.api('/api/v1/integrations')).body.integrations as { key: string }[]).map((c) => c.key));
    for (const token of ['active-token', 'exempt-token', 'lapsing-token', 'modern-token', 'quiet-token']) {
      const before = await known();
      if (token === 'modern-token') await runV2Session(url, 'pin', { token });
      else await runV1HttpSession(url, { token });
      expect(await service.flush()).toBe(true);
      const added = [...(await known())].filter((k) => !before.has(k));
      expect(added).toHaveLength(1);
      keys.set(token, added[0]!);
    }
    // An anonymous legacy caller, and quiet-token's traffic moved 40 days back: quiet past the plan's 30 days.
    await runV1HttpSession(url);
    expect(await service.flush()).toBe(true);
    const quiet = keys.get('quiet-token')!;
    service.database().sqlite.prepare('delete from traffic_day where integration = ?').run(quiet);
    createTallyWriter(service.database().db)({ cells: [trafficCell({ minute: Math.floor(Date.now() / DAY) * DAY - 40 * DAY, integration: quiet, count: 9 })], integrations: [] });
    await fetch(new URL(`/api/v1/integrations/${keys.get('active-token')}`, service.apiUrl), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Payments batch', owner: 'Payments team', contact: 'payments@example.com' }),
    });
  }, 90_000);
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await peer?.close();
  });

  test('each threshold tells exactly the active, identifiable, non-exempt callers, once, across a restart', async () => {
    const brownoutAt = Math.floor(Date.now() / DAY) * DAY + 10 * DAY + 14 * 3_600_000;
    const { id } = await sendPlan(
      service,
      'POST',
      '/api/v1/plans',
      legacyPlan({
        name: 'Retire the legacy era',
        noticeDays: [14, 7],
        brownouts: [{ startsAt: new Date(brownoutAt).toISOString(), endsAt: new Date(brownoutAt + 3_600_000).toISOString(), note: 'first brownout' }],
        exemptions: [
          { integration: keys.get('exempt-token')!, until: dayFromNow(30), note: 'migrating' },
          { integration: keys.get('lapsing-token')!, until: dayFromNow(3), note: 'lapses before the brownout' },
        ],
      }),
    );
    const told = (list: { integration: string; daysBefore: number }[]) => list.map((n) => [n.integration, n.daysBefore]).sort();
    const expected14 = [[keys.get('active-token')!, 14], [keys.get('lapsing-token')!, 14]].sort();
    expect(told(await evaluate())).toEqual(expected14);
    expect(await evaluate()).toEqual([]);

    const sent = notices();
    expect(told(sent.map((n) => ({ integration: n.caller.integration, daysBefore: n.stage.daysBefore })))).toEqual(expected14);
    const active = sent.find((n) => n.caller.integration === keys.get('active-token'))!;
    expect(active).toMatchObject({
      plan: { id, name: 'Retire the legacy era', policyUrl: POLICY_URL },
      stage: { kind: 'brownout', at: new Date(brownoutAt).toISOString(), daysBefore: 14 },
      caller: { displayName: 'Payments batch', owner: 'Payments team', contact: 'payments@example.com' },
      usage: { versions: ['2025-11-25'] },
    });
    expect(active.usage.requests).toBeGreaterThan(0);
    expect(active.summary).toContain('Payments batch');

    // A restart on the same database: nothing is sent again.
    const dbPath = service.dbPath;
    await service.stop();
    const restarted = await startTestService(new URL(peer.url), { ...config(), db: dbPath }, clock);
    const first = service;
    service = restarted;
    try {
      expect(await evaluate()).toEqual([]);
      // Four days on, the brownout is six days away: the 7-day notices go out, once.
      offset = 4 * DAY;
      expect(told(await evaluate())).toEqual([[keys.get('active-token')!, 7], [keys.get('lapsing-token')!, 7]].sort());
      expect(await evaluate()).toEqual([]);
      expect(notices()).toHaveLength(4);
      // Each is on record with how it went.
      const { body } = await service.api(`/api/v1/integrations/${keys.get('active-token')}/notices`);
      expect(body.notices.map((n: { stage: string; daysBefore: number; status: string }) => [n.stage, n.daysBefore, n.status])).toEqual([
        ['brownout', 7, 'delivered'],
        ['brownout', 14, 'delivered'],
      ]);
      expect((await service.api(`/api/v1/integrations/${keys.get('exempt-token')}/notices`)).body.notices).toEqual([]);
      // The dry run says who was told, in JSON and in the CSV for outreach.
      const dryRun = (await service.api(`/api/v1/plans/${id}/dry-run`)).body as { callers: { integration: string; told: { notices: number; lastNoticeAt: string | null } }[] };
      const toldOf = (token: string) => dryRun.callers.find((c) => c.integration === keys.get(token))?.told;
      expect(toldOf('active-token')).toMatchObject({ notices: 2, lastNoticeAt: expect.any(String) });
      expect(toldOf('exempt-token')).toMatchObject({ notices: 0, lastNoticeAt: null });
      const csv = await (await fetch(new URL(`/api/v1/plans/${id}/dry-run?format=csv`, service.apiUrl))).text();
      expect(csv.split('\r\n').find((line) => line.startsWith(keys.get('active-token')!))).toMatch(/,2,\d{4}-\d\d-\d\dT[^,]+,$/);
    } finally {
      offset = 0;
      await first.dispose();
    }
  }, 90_000);
});
