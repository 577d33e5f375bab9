export const NOTICE_STAGE_KINDS = ['brownout', 'block-new', 'cut'] as const;

/**
 * Where a notice stands:
 * - sending: claimed by a node, which is delivering it (a node stopped mid-way leaves it so: it is not sent again);
 * - delivered: every webhook took it; failed: one or more did not, after their retries;
 * - skipped: an earlier threshold that had passed unsent when a nearer one was due: never sent late.
 */
export const NOTICE_STATUSES = ['sending', 'delivered', 'failed', 'skipped'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/** One notice to one caller about one stage of a plan, at one threshold; once only, across restarts and a fleet. */
export interface CallerNoticeRecord {
  id: number;
  planId: number;
  integration: string;
  stage: (typeof NOTICE_STAGE_KINDS)[number];
  stageAt: number;
  daysBefore: number;
  status: NoticeStatus;
  node: string;
  claimedAt: number;
  finishedAt: number | null;
  attempts: number;
  lastError: string | null;
  /** What the notice said of the caller's use: served work requests in scope over the plan's quiet days, and the versions. */
  requests: number;
  versions: string[];
}

/** A notice a node means to send (or to record as skipped); the store answers it only to the node that takes it. */
export type NoticeClaim = Pick<CallerNoticeRecord, 'planId' | 'integration' | 'stage' | 'stageAt' | 'daysBefore' | 'node' | 'requests' | 'versions'> & { status: 'sending' | 'skipped' };

export interface NoticeOutcome {
  status: 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

export interface NoticeQuery {
  planId?: number;
  integrations?: readonly string[];
}
