import { describe, expect, test } from 'vitest';
import type { PersonSighting } from '../../../server/tally/tally-cell.js';
import type { Store } from '../../../server/store/store.js';
import { BACKENDS, cell, DAY, DAY_START, NOON, useStores } from './backends.js';

const APP = 'oauth:https://desk.example/client.json';
const OTHER = 'oauth:https://reports.example/client.json';

function person(overrides: Partial<PersonSighting> = {}): PersonSighting {
  return { day: DAY_START, integration: APP, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'digest-alice', ...overrides };
}

let streams = 0;
async function writePeople(store: Store, people: PersonSighting[], node = 'node-1'): Promise<void> {
  streams += 1;
  await store.writeTally([{ stream: `people-${streams}`, node, seq: 1, batch: { cells: [cell({ node })], integrations: [], people } }], NOON);
}

describe.each(BACKENDS)('%s store: the people behind each caller', (_dialect, backend) => {
  const { open } = useStores(backend);
  const span = { from: DAY_START - 7 * DAY, to: DAY_START + DAY };

  test('a person counts once per caller and era however many nodes, days and paths saw them; one who used both eras counts once in all', async () => {
    const store = await open();
    await writePeople(store, [person(), person({ day: DAY_START - DAY }), person({ version: '2025-11-25' }), person({ subject: 'digest-bob' })], 'node-1');
    // Another node saw alice too: the same rows, not more people.
    await writePeople(store, [person(), person({ era: 'modern', transport: 'streamable-http', version: '2026-07-28' }), person({ subject: 'digest-carol', era: 'modern', version: '2026-07-28' })], 'node-2');
    await writePeople(store, [person({ integration: OTHER, subject: 'digest-dave' }), person({ integration: OTHER, subject: 'digest-alice' })]);

    expect(await store.listCallerPeople(span)).toEqual([
      { integration: APP, legacy: 2, modern: 2, total: 3 },
      { integration: OTHER, legacy: 2, modern: 0, total: 2 },
    ]);
    // alice uses both callers: over every caller she is one person.
    expect(await store.countPeople(span)).toEqual({ legacy: 3, modern: 2, total: 4 });
    expect(await store.listCallerPeopleDays(APP, span)).toEqual([
      { day: DAY_START - DAY, legacy: 1, modern: 0, total: 1 },
      { day: DAY_START, legacy: 2, modern: 2, total: 3 },
    ]);
  });

  test('on a plan scope\'s path only: an era, a transport or a version', async () => {
    const store = await open();
    await writePeople(store, [
      person(),
      person({ subject: 'digest-bob', transport: 'http+sse', version: '2024-11-05' }),
      person({ subject: 'digest-carol', era: 'modern', version: '2026-07-28' }),
    ]);
    expect(await store.listCallerPeople(span, { kind: 'era', value: 'legacy' })).toEqual([{ integration: APP, legacy: 2, modern: 0, total: 2 }]);
    expect(await store.listCallerPeople(span, { kind: 'transport', value: 'http+sse' })).toEqual([{ integration: APP, legacy: 1, modern: 0, total: 1 }]);
    expect(await store.countPeople(span, { kind: 'version', value: '2026-07-28' })).toEqual({ legacy: 0, modern: 1, total: 1 });
    expect(await store.countPeople({ from: DAY_START + DAY, to: DAY_START + 2 * DAY })).toEqual({ legacy: 0, modern: 0, total: 0 });
  });

  test('a batch written again (a retried flush) adds nobody, and people past retention are deleted', async () => {
    const store = await open();
    const batch = { stream: 'retry-stream', node: 'node-1', seq: 1, batch: { cells: [cell()], integrations: [], people: [person(), person({ day: DAY_START - 30 * DAY, subject: 'digest-old' })] } };
    await store.writeTally([batch], NOON);
    await store.writeTally([batch], NOON);
    expect(await store.countPeople({ from: 0, to: DAY_START + DAY })).toEqual({ legacy: 2, modern: 0, total: 2 });
    await store.deleteExpiredTraffic(NOON, { minuteDays: 14, hourDays: 400, peopleDays: 10 });
    expect(await store.countPeople({ from: 0, to: DAY_START + DAY })).toEqual({ legacy: 1, modern: 0, total: 1 });
  });

  test('labels a client chose are stored as given (a NUL stands in as U+FFFD on Postgres), never failing the flush', async () => {
    const store = await open();
    await writePeople(store, [person({ integration: 'oauth:odd\u0000name', version: 'v\u0000' })]);
    const [row] = await store.listCallerPeople(span);
    expect(row?.total).toBe(1);
  });
});
