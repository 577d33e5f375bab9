import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runV1HttpSession } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { dayFromNow, legacyPlan } from '../support/enforcement-peers.js';
import { spawnCli } from '../support/spawn-cli.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const OLD_TOKEN = 'desk-static-token-from-2025';
const NEW_TOKEN = 'desk-oauth-era-token-2026';

async function send(service: TestService, method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(path, service.apiUrl), {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

async function callers(service: TestService): Promise<Map<string, any>> {
  const { body } = await service.api('/api/v1/integrations');
  return new Map(body.integrations.filter((i: any) => i.identifiable).map((i: any) => [i.key, i]));
}

/** The outcome of one legacy session under a token: `3` when served, else the client's error. */
async function legacyOutcome(service: TestService, token: string): Promise<string> {
  try {
    return (await runV1HttpSession(new URL('/mcp', service.sidecarUrl), { token })).sum;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * One application under two names, as a real deployment has it: an old static token (its `tok_`
 * fingerprint) and the token it uses now. Joined, they read as one caller, history included, and
 * the plan's exemption for the caller covers the old name; undone, each is its own again.
 */
describe('joining names into one caller', () => {
  let upstream: Peer;
  let service: TestService;
  let oldKey: string;
  let newKey: string;

  beforeAll(async () => {
    upstream = await startV2Server('dual');
    service = await startTestService(new URL(upstream.origin), { enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] } });
    // Before any plan: both names used the legacy path.
    for (const token of [OLD_TOKEN, NEW_TOKEN, OLD_TOKEN]) expect(await legacyOutcome(service, token)).toBe('3');
    const served = await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call' });
    const keys = Object.keys(served);
    expect(keys).toHaveLength(2);
    [oldKey, newKey] = keys.sort((a, b) => served[b]! - served[a]!) as [string, string];
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('joined through the API: one caller with both histories, the join audited; the exemption of the caller covers the old name; undone, the old name is refused again', async () => {
    const before = await callers(service);
    const joined = await send(service, 'POST', `/api/v1/integrations/${newKey}/aliases`, { aliases: [oldKey], note: 'the desk app before it moved its token' });
    expect(joined).toMatchObject({ status: 201, body: { caller: newKey, aliases: [oldKey], joined: [{ alias: oldKey, caller: newKey, createdBy: 'api (no admin token)' }] } });
    const after = await callers(service);
    expect([...after.keys()]).toEqual([newKey]);
    expect(after.get(newKey)).toMatchObject({
      aliases: [oldKey],
      legacyServed: before.get(newKey).legacyServed + before.get(oldKey).legacyServed,
      firstSeen: [before.get(newKey).firstSeen, before.get(oldKey).firstSeen].sort()[0],
    });
    const servedBefore = Object.values(await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call' })).reduce((a, b) => a + b, 0);
    expect(await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call' })).toEqual({ [newKey]: servedBefore });
    const audit = await service.api(`/api/v1/audit?subject=${encodeURIComponent(`integration:${oldKey}`)}`);
    expect(audit.body.events.map((e: any) => [e.action, e.actor])).toEqual([['caller.join', 'api (no admin token)']]);

    // The cut is in force; only the caller (by its own name) is exempt.
    await sendPlanWithToken(legacyPlan({ retireDate: dayFromNow(-1), exemptions: [{ integration: newKey, until: dayFromNow(30), note: 'migrating' }] }));
    expect(await legacyOutcome(service, OLD_TOKEN)).toBe('3');
    expect(await legacyOutcome(service, NEW_TOKEN)).toBe('3');

    const undone = await send(service, 'DELETE', `/api/v1/integrations/${newKey}/aliases/${oldKey}`);
    expect(undone).toMatchObject({ status: 200, body: { alias: oldKey, caller: newKey } });
    expect(await legacyOutcome(service, OLD_TOKEN)).toMatch(/retired/);
    expect(await legacyOutcome(service, NEW_TOKEN)).toBe('3');
    const apart = await callers(service);
    expect([...apart.keys()].sort()).toEqual([newKey, oldKey].sort());
    // Its own history back: what it had, and the session it was served under the join (one session's work: what the new name had before).
    expect(apart.get(oldKey).legacyServed).toBe(before.get(oldKey).legacyServed + before.get(newKey).legacyServed);
    expect(apart.get(newKey).aliases).toEqual([]);
  });

  test('refusals answer with the name at fault: a chain, a name joined elsewhere, an unknown caller', async () => {
    expect(await send(service, 'POST', `/api/v1/integrations/${newKey}/aliases`, { aliases: [oldKey] })).toMatchObject({ status: 201 });
    expect(await send(service, 'POST', `/api/v1/integrations/${oldKey}/aliases`, { aliases: ['tok_0000000000000000'] })).toMatchObject({ status: 409, body: { error: { parameter: 'key' } } });
    expect(await send(service, 'POST', `/api/v1/integrations/tok_ffffffffffffffff/aliases`, { aliases: [oldKey] })).toMatchObject({ status: 404 });
    expect(await send(service, 'POST', `/api/v1/integrations/${newKey}/aliases`, { aliases: [] })).toMatchObject({ status: 400, body: { error: { parameter: 'aliases' } } });
    // The unknown base is nobody's: it is never joined into a caller, nor a caller into it.
    expect(await send(service, 'POST', `/api/v1/integrations/${newKey}/aliases`, { aliases: ['anonymous'] })).toMatchObject({ status: 400, body: { error: { parameter: 'aliases' } } });
    expect(await send(service, 'DELETE', `/api/v1/integrations/${oldKey}/aliases/${newKey}`)).toMatchObject({ status: 404 });
    expect(await send(service, 'DELETE', `/api/v1/integrations/${newKey}/aliases/${oldKey}`)).toMatchObject({ status: 200 });
  });

  test('from the command line: join and unjoin on the store and through the API, with one clear line and exit 2 for what cannot be done', async () => {
    const join = spawnCli(['join', oldKey, '--into', newKey, '--note', 'same app', '--db', service.dbPath]);
    expect({ code: await join.exited, stderr: join.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(join.stdout()).toBe(`joined ${oldKey} into ${newKey}\n${newKey} now counts as its own: ${oldKey}\n`);
    expect((await callers(service)).get(newKey).aliases).toEqual([oldKey]);

    const chain = spawnCli(['join', newKey, '--into', oldKey, '--db', service.dbPath]);
    expect(await chain.exited).toBe(2);
    expect(chain.stderr().trim().split('\n')).toHaveLength(1);

    const unjoin = spawnCli(['unjoin', oldKey, '--from', newKey, '--api', service.apiUrl.href, '--json']);
    expect({ code: await unjoin.exited, stderr: unjoin.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(unjoin.stdout())).toMatchObject({ alias: oldKey, caller: newKey, note: 'same app' });
    const again = spawnCli(['unjoin', oldKey, '--from', newKey, '--api', service.apiUrl.href]);
    expect(await again.exited).toBe(2);
    expect(again.stderr()).toContain('is not joined into');
  }, 60_000);

  async function sendPlanWithToken(body: Record<string, unknown>): Promise<void> {
    const response = await fetch(new URL('/api/v1/plans', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
  }
});
