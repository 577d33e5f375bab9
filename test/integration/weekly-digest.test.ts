import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { trafficCell } from '../store/temp-database.js';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** What each session of test/peers/clients.ts asks: tools/list and two tools/call (initialize is negotiation, not work). */
const WORK_PER_SESSION = 3;

interface DigestBody {
  kind?: string;
  generatedAt: string;
  period: { from: string; to: string };
  share: { current: number | null; previous: number | null; change: number | null; legacyRequests: number; servedRequests: number };
  plans: { id: number; name: string; phase: string; nextStage: { kind: string; at: string } | null }[];
  callers: {
    moved: { integration: string; modernRequests: number }[];
    startedMigrating: { integration: string }[];
    wentQuiet: { integration: string }[];
    remaining: { integration: string; displayName: string | null; owner: string | null; legacyRequests: number; legacyPeople: number | null; migration: string }[];
    remainingCount: number;
    legacy: { identifiable: number; unknown: number; total: number; people: { thisWeek: number; lastWeek: number } };
  };
  links: { dashboard: string; print: string };
  summary: string[];
}

/**
 * Real callers through the sidecar in front of the SDK's dual-era server, each with its own token,
 * over a seeded week before: one that moved to the modern era this week, one that started, one left
 * on legacy, one gone quiet, and the anonymous rest. The digest goes to a JSON and a Slack webhook.
 */
describe('the weekly digest', () => {
  let peer: Peer;
  let receiver: WebhookReceiver;
  let service: TestService;
  const keys = new Map<string, string>();
  const webhooks = () => [
    { name: 'pm-json', url: `${receiver.url}?f=json`, format: 'json' as const },
    { name: 'pm-slack', url: `${receiver.url}?f=slack`, format: 'slack' as const },
  ];
  const received = (format: 'json' | 'slack') => receiver.received.filter((r) => r.path.endsWith(`f=${format}`));
  const brownoutAt = Math.floor(Date.now() / DAY) * DAY + 3 * DAY + 14 * HOUR;

  beforeAll(async () => {
    peer = await startV2Server('dual');
    receiver = await startWebhookReceiver();
    service = await startTestService(new URL(peer.url), { alerts: { schedule: '0 0 1 1 *', webhooks: webhooks(), maxAttempts: 1, initialBackoffMs: 10, digest: { enabled: false } } });
    const url = new URL(peer.url.pathname, service.sidecarUrl);
    const known = async () => new Set(((await service.api('/api/v1/integrations')).body.integrations as { key: string }[]).map((c) => c.key));
    const sessions: [string, 'v1' | 'v2'][] = [
      ['moving-token', 'v2'],
      ['starting-token', 'v1'],
      ['starting-token', 'v2'],
      ['legacy-token', 'v1'],
      ['legacy-token', 'v1'],
    ];
    for (const [token, era] of sessions) {
      const before = await known();
      if (era === 'v2') await runV2Session(url, 'pin', { token });
      else await runV1HttpSession(url, { token });
      expect(await service.flush()).toBe(true);
      const added = [...(await known())].filter((k) => !before.has(k));
      if (!keys.has(token)) {
        expect(added).toHaveLength(1);
        keys.set(token, added[0]!);
      } else expect(added).toEqual([]);
    }
    await runV1HttpSession(url);
    expect(await service.flush()).toBe(true);
    // The week before, seeded: each of them on legacy, and a caller that has gone quiet since.
    const lastWeek = Math.floor(Date.now() / DAY) * DAY - 10 * DAY + 12 * HOUR;
    const seeded = [
      trafficCell({ minute: lastWeek, integration: keys.get('moving-token')!, count: 40 }),
      trafficCell({ minute: lastWeek, integration: keys.get('starting-token')!, count: 20 }),
      trafficCell({ minute: lastWeek, integration: keys.get('legacy-token')!, count: 30 }),
      trafficCell({ minute: lastWeek, integration: 'tok_quietcaller', count: 9 }),
    ];
    const sighting = { key: 'tok_quietcaller', source: 'bearer-fingerprint', firstSeen: lastWeek, lastSeen: lastWeek, lastLegacySeen: lastWeek, clientInfo: undefined };
    // The people behind them, as an OAuth deployment's tokens would name them (keyed digests of the subject):
    // this week p1–p3 on the legacy caller, p3 also on the one starting to migrate (and p4 on its modern path);
    // the week before p1 and p5 on the legacy caller, p6 on the quiet one and p7 on the one that moved since.
    const thisWeekDay = Math.floor(Date.now() / DAY) * DAY - DAY;
    const lastWeekDay = Math.floor(lastWeek / DAY) * DAY;
    const person = (day: number, token: string, subject: string, era: 'legacy' | 'modern' = 'legacy') => ({
      day,
      integration: keys.get(token) ?? token,
      era,
      transport: 'streamable-http' as const,
      version: era === 'legacy' ? '2025-06-18' : '2026-07-28',
      subject,
    });
    const people = [
      ...['p1', 'p2', 'p3'].map((p) => person(thisWeekDay, 'legacy-token', `digest-${p}`)),
      person(thisWeekDay, 'starting-token', 'digest-p3'),
      person(thisWeekDay, 'starting-token', 'digest-p4', 'modern'),
      ...['p1', 'p5'].map((p) => person(lastWeekDay, 'legacy-token', `digest-${p}`)),
      person(lastWeekDay, 'tok_quietcaller', 'digest-p6'),
      person(lastWeekDay, 'moving-token', 'digest-p7'),
    ];
    createTallyWriter(service.database().db)({ cells: seeded, integrations: [sighting], people });
    const patch = await fetch(new URL(`/api/v1/integrations/${keys.get('legacy-token')}`, service.apiUrl), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Nightly export', owner: 'Data team', contact: 'data@example.com' }),
    });
    expect(patch.status).toBe(200);
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire the legacy era', brownouts: [{ startsAt: new Date(brownoutAt).toISOString(), endsAt: new Date(brownoutAt + HOUR).toISOString(), note: 'first brownout' }] }));
  }, 90_000);
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await peer?.close();
  });

  test('what moved this week, who is left, and the share week on week, as the print view reads it and the webhooks are sent it', async () => {
    const { status, body } = await service.api<DigestBody & { schedule: unknown; lastSent: unknown }>('/api/v1/digest');
    expect(status).toBe(200);
    expect(body.callers.moved.map((c) => c.integration)).toEqual([keys.get('moving-token')]);
    expect(body.callers.moved[0]!.modernRequests).toBe(WORK_PER_SESSION);
    expect(body.callers.startedMigrating.map((c) => c.integration)).toEqual([keys.get('starting-token')]);
    expect(body.callers.wentQuiet.map((c) => c.integration)).toEqual(['tok_quietcaller']);
    expect(body.callers.remaining.map((c) => [c.integration, c.legacyRequests, c.migration])).toEqual([
      [keys.get('legacy-token'), 2 * WORK_PER_SESSION, 'legacy-only'],
      [keys.get('starting-token'), WORK_PER_SESSION, 'migrating'],
    ]);
    expect(body.callers.remaining[0]).toMatchObject({ displayName: 'Nightly export', owner: 'Data team' });
    // The people behind each one's legacy work this week; p4 came by the modern path, so not here.
    expect(body.callers.remaining.map((c) => c.legacyPeople)).toEqual([3, 1]);
    // The anonymous session is the unknown installed base: counted, never named. p3, behind two callers, is one person.
    expect(body.callers.legacy).toEqual({ identifiable: 3 * WORK_PER_SESSION, unknown: WORK_PER_SESSION, total: 4 * WORK_PER_SESSION, people: { thisWeek: 3, lastWeek: 4 } });
    // This week: four legacy sessions and two modern ones; the week before, only the seeded legacy work.
    expect(body.share).toMatchObject({ legacyRequests: 4 * WORK_PER_SESSION, servedRequests: 6 * WORK_PER_SESSION, previous: 1 });
    expect(body.share.current).toBeCloseTo(4 / 6, 12);
    expect(body.share.change).toBeCloseTo(4 / 6 - 1, 12);
    expect(body.plans).toEqual([expect.objectContaining({ name: 'Retire the legacy era', phase: 'announced', nextStage: expect.objectContaining({ kind: 'brownout', at: new Date(brownoutAt).toISOString() }) })]);
    expect(body.links).toEqual({ dashboard: service.apiUrl.href, print: new URL('digest.html', service.apiUrl).href });
    // A process whose digest schedule is off says so; nothing was sent yet.
    expect(body.schedule).toBeNull();
    expect(body.lastSent).toBeNull();

    const send = await fetch(new URL('/api/v1/digest/send', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(send.status).toBe(200);
    const { digest } = (await send.json()) as { digest: { id: number; kind: string; status: string; requestedBy: string; deliveries: { webhook: string; status: string }[]; content: DigestBody; summary: string } };
    expect(digest).toMatchObject({ kind: 'on-demand', status: 'delivered', requestedBy: 'api (no admin token)' });
    expect(digest.deliveries.map((d) => [d.webhook, d.status]).sort()).toEqual([
      ['pm-json', 'delivered'],
      ['pm-slack', 'delivered'],
    ]);
    const [json] = received('json');
    const [slack] = received('slack');
    expect(json!.body).toEqual({ source: 'mcp-sunset', kind: 'digest', ...digest.content });
    // What was sent is what the API shows, but for when it was composed.
    const { generatedAt: _sentAt, ...sent } = digest.content;
    const { generatedAt: _shownAt, schedule: _schedule, lastSent: _lastSent, ...shown } = body;
    expect(sent).toEqual(shown);
    expect((slack!.body as { text: string }).text).toBe(['*mcp-sunset weekly digest*', ...digest.content.summary].join('\n'));
    expect(digest.summary).toBe(digest.content.summary.join('\n'));
    expect(digest.content.summary).toContain(`Moved this week: ${keys.get('moving-token')}.`);
    expect(digest.content.summary.find((line) => line.startsWith('Largest remaining'))).toBe(
      `Largest remaining identifiable callers: Nightly export (${keys.get('legacy-token')}) [Data team] 6 requests from 3 people (50.00%); ${keys.get('starting-token')} 3 requests from 1 person (25.00%).`,
    );
    expect(digest.content.summary).toContain('People served legacy work: 3 people this week, 4 the week before (distinct, as verified credentials named them).');

    const listed = await service.api<{ digests: { id: number; status: string }[]; next: number | null }>('/api/v1/digests');
    expect(listed.body).toEqual({ digests: [expect.objectContaining({ id: digest.id, status: 'delivered' })], next: null });
    expect((await service.api('/api/v1/digest')).body.lastSent).toMatchObject({ id: digest.id });
  });

  test('on a schedule, two nodes on one store send each digest once', async () => {
    receiver.received.length = 0;
    const digestConfig = { schedule: '*/2 * * * * *', timeZone: 'Europe/Berlin' };
    const nodes = await Promise.all(
      ['node-a', 'node-b'].map((node) =>
        startTestService(new URL(peer.url), { db: service.dbPath, node, alerts: { schedule: '0 0 1 1 *', webhooks: webhooks().slice(0, 1), maxAttempts: 1, initialBackoffMs: 10, digest: digestConfig } }),
      ),
    );
    try {
      const schedule = (await nodes[0]!.api('/api/v1/digest')).body.schedule as { expression: string; timeZone: string; nextRun: string };
      expect(schedule).toMatchObject({ expression: '*/2 * * * * *', timeZone: 'Europe/Berlin' });
      expect(Date.parse(schedule.nextRun) - Date.now()).toBeLessThanOrEqual(2_000);
      const scheduled = async () => ((await nodes[0]!.api('/api/v1/digests?limit=100')).body.digests as { kind: string; status: string; node: string }[]).filter((d) => d.kind === 'scheduled');
      while ((await scheduled()).filter((d) => d.status !== 'sending').length < 3) await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
    // Every scheduled instant claimed once, by one node, and received once.
    const rows = service.database().sqlite.prepare(`select key, node, status from digests where kind = 'scheduled' order by key`).all() as { key: string; node: string; status: string }[];
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(rows.every((r) => /^scheduled:\d{4}-\d\d-\d\dT\d\d:\d\d:(\d[02468])\.000Z$/.test(r.key))).toBe(true);
    // Each was received once (a delivery cut short by the stop may still have arrived, or not).
    const bodies = received('json').map((r) => r.body as DigestBody);
    expect(bodies.every((b) => b.kind === 'digest')).toBe(true);
    expect(new Set(bodies.map((b) => b.generatedAt)).size).toBe(bodies.length);
    expect(bodies.length).toBeGreaterThanOrEqual(rows.filter((r) => r.status === 'delivered').length);
    expect(bodies.length).toBeLessThanOrEqual(rows.length);
    for (const node of nodes) await node.dispose();
  }, 60_000);
});
