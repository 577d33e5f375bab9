import { describe, expect, test } from 'vitest';
import type { NoticeClaim } from '../../../server/store/records/caller-notice-record.js';
import { planInput } from '../../support/plan-input.js';
import { BACKENDS, DAY, NOON, useStores } from './backends.js';

describe.each(BACKENDS)('%s store: notices to callers', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('a notice is claimed once: a second claim of it answers nothing; its delivery is recorded and audited', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput(), NOON);
    const claim: NoticeClaim = { planId: plan.id, integration: 'tok_a', stage: 'cut', stageAt: NOON + 7 * DAY, daysBefore: 7, status: 'sending', node: 'node-a', requests: 12, versions: ['2025-06-18'] };
    const [claimed] = await store.claimNotices([claim, { ...claim, daysBefore: 14, status: 'skipped' }], NOON);
    expect(claimed).toMatchObject({ ...claim, claimedAt: NOON, finishedAt: null, attempts: 0, lastError: null });
    expect(await store.claimNotices([{ ...claim, node: 'node-b' }], NOON + 1)).toEqual([]);

    const finished = await store.finishNotice(claimed!.id, { status: 'failed', attempts: 3, lastError: 'outreach: HTTP 500' }, NOON + 2);
    expect(finished).toMatchObject({ status: 'failed', attempts: 3, lastError: 'outreach: HTTP 500', finishedAt: NOON + 2 });
    // Only a notice still being sent can be finished.
    expect(await store.finishNotice(claimed!.id, { status: 'delivered', attempts: 1, lastError: null }, NOON + 3)).toBeUndefined();

    const listed = await store.listCallerNotices({ integrations: ['tok_a'] });
    // Newest first: claimed together, the later row first.
    expect(listed.map((n) => [n.daysBefore, n.status])).toEqual([
      [14, 'skipped'],
      [7, 'failed'],
    ]);
    expect(await store.listCallerNotices({ integrations: ['tok_b'] })).toEqual([]);
    expect((await store.listCallerNotices({ planId: plan.id })).length).toBe(2);
    const [audit] = (await store.listAuditEvents({ limit: 5 })).filter((e) => e.action === 'notice.send');
    expect(audit).toMatchObject({ actor: 'notices (node-a)', subject: 'integration:tok_a', after: { status: 'failed', stage: 'cut', daysBefore: 7 } });
  });

  test('a contact made by hand is recorded with who recorded it, and audited', async () => {
    const store = await open();
    const contact = await store.insertCallerContact({ integration: 'tok_a', planId: null, kind: 'call', note: 'They move in March' }, NOON, 'token:alice');
    expect(contact).toEqual({ id: contact.id, integration: 'tok_a', planId: null, kind: 'call', note: 'They move in March', at: NOON, by: 'token:alice' });
    await store.insertCallerContact({ integration: 'tok_b', planId: null, kind: 'ticket', note: 'OPS-12' }, NOON + 1, 'token:alice');
    expect((await store.listCallerContacts(['tok_a'])).map((c) => c.note)).toEqual(['They move in March']);
    expect((await store.listCallerContacts()).map((c) => c.integration)).toEqual(['tok_b', 'tok_a']);
    expect((await store.listAuditEvents({ limit: 5 })).map((e) => [e.action, e.actor, e.subject])).toEqual([
      ['contact.record', 'token:alice', 'integration:tok_b'],
      ['contact.record', 'token:alice', 'integration:tok_a'],
    ]);
  });
});
