import { describe, expect, test } from 'vitest';
import type { Store } from '../../../server/store/store.js';
import { BACKENDS, cell, DAY, DAY_START, HOUR, NOON, sighting, useStores, writeCells } from './backends.js';

const APP = 'oauth:https://desk.example/client.json';
const OLD = 'tok_0123456789abcdef';
const GATEWAY = 'desk-gateway';
const OTHER = 'tok_fedcba9876543210';
const LEGACY = { kind: 'era' as const, value: 'legacy' };
const WEEK = { from: DAY_START - 7 * DAY, to: DAY_START + DAY };

/** A week of one application under three names (an old static token, a gateway name, its OAuth client), and another caller. */
async function seed(store: Store): Promise<void> {
  await writeCells(
    store,
    [
      cell({ integration: OLD, minute: NOON - 3 * DAY, count: 5 }),
      cell({ integration: GATEWAY, minute: NOON - 2 * DAY, count: 3 }),
      cell({ integration: APP, minute: NOON, count: 2 }),
      cell({ integration: APP, minute: NOON, era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 7 }),
      cell({ integration: OTHER, minute: NOON, count: 11 }),
      cell({ integration: OLD, minute: NOON - HOUR, outcome: 'blocked', count: 4 }),
    ],
    [sighting({ key: OLD, firstSeen: NOON - 3 * DAY }), sighting({ key: GATEWAY, source: 'gateway-header' }), sighting({ key: APP, source: 'oauth' }), sighting({ key: OTHER })],
  );
  await store.writeTally(
    [{ stream: 'people-join', node: 'node-1', seq: 1, batch: { cells: [], integrations: [], people: [
      { day: DAY_START, integration: APP, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'alice' },
      { day: DAY_START - 2 * DAY, integration: GATEWAY, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'alice' },
      { day: DAY_START - 2 * DAY, integration: GATEWAY, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'bob' },
    ] } }],
    NOON,
  );
}

describe.each(BACKENDS)('%s store: names joined into one caller', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('every read folds the joined names into their caller, history included, and undoing a join gives a name its own history back', async () => {
    const store = await open();
    await seed(store);
    const versionBefore = await store.getPolicyVersion();
    const result = await store.joinCallers({ into: APP, aliases: [OLD, GATEWAY], note: 'the desk app before OAuth', by: 'token:ops' }, NOON);
    expect(result).toEqual({ joined: [
      { alias: OLD, caller: APP, createdAt: NOON, createdBy: 'token:ops', note: 'the desk app before OAuth' },
      { alias: GATEWAY, caller: APP, createdAt: NOON, createdBy: 'token:ops', note: 'the desk app before OAuth' },
    ] });
    expect(await store.getPolicyVersion()).toBe(versionBefore + 1);

    const volumes = new Map((await store.listCallerVolumes(WEEK.from)).map((v) => [v.integration, v]));
    expect([...volumes.keys()].sort()).toEqual([APP, OTHER].sort());
    expect(volumes.get(APP)).toEqual({ integration: APP, served: 5 + 3 + 2 + 7, legacyServed: 5 + 3 + 2 });
    expect(await store.listScopeCallersBefore(LEGACY, NOON - DAY)).toEqual(new Set([APP]));
    expect(await store.listScopeLastUse(LEGACY, WEEK.from)).toEqual(new Map([[APP, DAY_START], [OTHER, DAY_START]]));
    expect((await store.listScopeCallers(LEGACY, WEEK)).map((c) => [c.integration, c.requests])).toEqual(expect.arrayContaining([[APP, 10], [OTHER, 11]]));
    expect(await store.listLegacyCallerCounts(WEEK.from, WEEK.to)).toEqual([
      { day: DAY_START - 3 * DAY, count: 1 },
      { day: DAY_START - 2 * DAY, count: 1 },
      { day: DAY_START, count: 2 },
    ]);
    // alice used the app under two names: one person.
    expect(await store.listCallerPeople(WEEK)).toEqual([{ integration: APP, legacy: 2, modern: 0, total: 2 }]);
    const traffic = await store.listTraffic({ from: WEEK.from, to: WEEK.to, bucket: 'day', groupBy: 'integration', filters: {} });
    expect(traffic.totals).toEqual({ [APP]: 5 + 3 + 2 + 7 + 4, [OTHER]: 11 });
    const filtered = await store.listTraffic({ from: WEEK.from, to: WEEK.to, bucket: 'day', groupBy: 'era', filters: { integration: APP } });
    expect(filtered.totals).toEqual({ legacy: 5 + 3 + 2 + 4, modern: 7 });
    expect((await store.listNewLegacyCallers(WEEK.from)).callers.map((c) => [c.integration, c.firstDay])).toEqual([[APP, DAY_START - 3 * DAY], [OTHER, DAY_START]]);
    expect((await store.listCallerRefusals(NOON - HOUR)).map((r) => [r.integration, r.inHour])).toEqual([[APP, 4]]);

    const undone = await store.unjoinCaller(GATEWAY, 'token:ops', NOON + 1);
    expect(undone).toMatchObject({ alias: GATEWAY, caller: APP });
    expect(await store.getPolicyVersion()).toBe(versionBefore + 2);
    expect(await store.listCallerPeople(WEEK)).toEqual([
      { integration: GATEWAY, legacy: 2, modern: 0, total: 2 },
      { integration: APP, legacy: 1, modern: 0, total: 1 },
    ].sort((a, b) => (a.integration < b.integration ? -1 : 1)));
    expect(new Map((await store.listCallerVolumes(WEEK.from)).map((v) => [v.integration, v.served]))).toEqual(new Map([[APP, 5 + 2 + 7], [GATEWAY, 3], [OTHER, 11]]));
    expect(await store.unjoinCaller(GATEWAY, 'token:ops', NOON + 2)).toBeUndefined();

    const audit = await store.listAuditEvents({ limit: 10 });
    expect(audit.map((e) => [e.action, e.subject, e.actor])).toEqual([
      ['caller.unjoin', `integration:${GATEWAY}`, 'token:ops'],
      ['caller.join', `integration:${GATEWAY}`, 'token:ops'],
      ['caller.join', `integration:${OLD}`, 'token:ops'],
    ]);
  });

  test('joins stay one level deep: no chain, no name in two callers, no caller into one of its own names; joining a name twice changes nothing', async () => {
    const store = await open();
    await store.joinCallers({ into: APP, aliases: [OLD], note: null, by: 'a' }, NOON);
    expect(await store.joinCallers({ into: OLD, aliases: [OTHER], note: null, by: 'a' }, NOON)).toEqual({ reason: 'into-is-alias', name: OLD, caller: APP });
    expect(await store.joinCallers({ into: OTHER, aliases: [OLD], note: null, by: 'a' }, NOON)).toEqual({ reason: 'alias-joined-elsewhere', name: OLD, caller: APP });
    expect(await store.joinCallers({ into: OTHER, aliases: [APP], note: null, by: 'a' }, NOON)).toEqual({ reason: 'alias-has-aliases', name: APP });
    expect(await store.joinCallers({ into: APP, aliases: [APP], note: null, by: 'a' }, NOON)).toEqual({ reason: 'alias-is-into', name: APP });
    const before = await store.getPolicyVersion();
    expect(await store.joinCallers({ into: APP, aliases: [OLD], note: null, by: 'a' }, NOON)).toEqual({ joined: [] });
    expect(await store.getPolicyVersion()).toBe(before);
    expect(await store.listCallerAliases()).toEqual([{ alias: OLD, caller: APP, createdAt: NOON, createdBy: 'a', note: null }]);
  });
});
