import { describe, expect, test } from 'vitest';
import { dueNotices, noticeStages } from '../../server/analysis/due-notices.js';

const DAY = 86_400_000;
const at = (date: string, time = '00:00:00') => Date.parse(`${date}T${time}Z`);

describe('noticeStages', () => {
  test('each brownout, the block-new date and the cut, in time order', () => {
    const stages = noticeStages({ retireAt: at('2027-03-01'), blockNewAt: at('2027-02-01') }, [{ startsAt: at('2027-02-15', '14:00:00'), endsAt: at('2027-02-15', '15:00:00') }, { startsAt: at('2027-01-10'), endsAt: at('2027-01-11') }]);
    expect(stages.map((s) => [s.kind, new Date(s.at).toISOString().slice(0, 13)])).toEqual([
      ['brownout', '2027-01-10T00'],
      ['block-new', '2027-02-01T00'],
      ['brownout', '2027-02-15T14'],
      ['cut', '2027-03-01T00'],
    ]);
    expect(noticeStages({ retireAt: at('2027-03-01'), blockNewAt: null }, []).map((s) => s.kind)).toEqual(['cut']);
  });
});

describe('dueNotices', () => {
  const cut = { kind: 'cut' as const, at: at('2027-03-01'), endsAt: null };

  test('nothing before the first threshold, then each threshold from its instant on', () => {
    expect(dueNotices([cut], [30, 14, 7, 1], cut.at - 30 * DAY - 1)).toEqual([]);
    expect(dueNotices([cut], [30, 14, 7, 1], cut.at - 30 * DAY)).toEqual([{ stage: cut, daysBefore: 30, skipped: [] }]);
    expect(dueNotices([cut], [30, 14, 7, 1], cut.at - 8 * DAY)).toEqual([{ stage: cut, daysBefore: 14, skipped: [30] }]);
    expect(dueNotices([cut], [1, 30, 7, 14], cut.at - 1)).toEqual([{ stage: cut, daysBefore: 1, skipped: [7, 14, 30] }]);
  });

  test('a stage that has begun is told nothing more', () => {
    expect(dueNotices([cut], [30, 1], cut.at)).toEqual([]);
  });

  test('no days, no notices', () => {
    expect(dueNotices([cut], [], cut.at - DAY)).toEqual([]);
  });

  test('each stage on its own', () => {
    const brownout = { kind: 'brownout' as const, at: at('2027-02-20'), endsAt: at('2027-02-20', '01:00:00') };
    expect(dueNotices([brownout, cut], [14, 7], at('2027-02-15')).map((d) => [d.stage.kind, d.daysBefore])).toEqual([
      ['brownout', 7],
      ['cut', 14],
    ]);
  });
});
