/**
 * Which notices to callers are due: a plan names days before each of its stages (each brownout, the
 * block-new date, the cut) on which its active callers are told. Pure: the caller says when.
 * Invariant: at most one notice per stage is due at a time, the nearest threshold passed; those
 * passed before it (a node that was down, a plan made late) are answered as skipped, never sent late.
 */
import { DAY_MS } from './compute-week-start.js';
import type { PlanClock } from './plan-clock.js';

export const NOTICE_STAGES = ['brownout', 'block-new', 'cut'] as const;
export type NoticeStageKind = (typeof NOTICE_STAGES)[number];

export interface NoticeStage {
  kind: NoticeStageKind;
  /** When it starts refusing. */
  at: number;
  /** A brownout's end; null for the others, which last. */
  endsAt: number | null;
}

export interface DueNotice {
  stage: NoticeStage;
  /** The threshold this notice is for, in days before the stage. */
  daysBefore: number;
  /** Earlier thresholds of the same stage that passed unsent: recorded as skipped. */
  skipped: number[];
}

/** The stages a plan refuses at: its brownouts, the block-new date and the retire date (the cut, unless a gate holds it). */
export function noticeStages(clock: Pick<PlanClock, 'retireAt' | 'blockNewAt'>, brownouts: readonly { startsAt: number; endsAt: number }[]): NoticeStage[] {
  const stages: NoticeStage[] = brownouts.map((b) => ({ kind: 'brownout', at: b.startsAt, endsAt: b.endsAt }));
  if (clock.blockNewAt !== null) stages.push({ kind: 'block-new', at: clock.blockNewAt, endsAt: null });
  stages.push({ kind: 'cut', at: clock.retireAt, endsAt: null });
  return stages.sort((a, b) => a.at - b.at);
}

/** The notices due at `now` for stages still ahead: for each, the nearest threshold passed. */
export function dueNotices(stages: readonly NoticeStage[], noticeDays: readonly number[], now: number): DueNotice[] {
  if (noticeDays.length === 0) return [];
  const thresholds = [...new Set(noticeDays)].sort((a, b) => a - b);
  return stages.flatMap((stage) => {
    if (now >= stage.at) return [];
    const passed = thresholds.filter((days) => now >= stage.at - days * DAY_MS);
    if (passed.length === 0) return [];
    const [nearest, ...earlier] = passed;
    return [{ stage, daysBefore: nearest!, skipped: earlier }];
  });
}
