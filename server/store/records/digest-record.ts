/**
 * Where a digest stands:
 * - sending: claimed by a node, which is delivering it (a node stopped mid-way leaves it so: it is not sent again);
 * - delivered: every webhook took it; failed: one or more did not, after their retries;
 * - no-channels: composed and kept, with no webhook configured to send it to.
 */
export const DIGEST_STATUSES = ['sending', 'delivered', 'failed', 'no-channels'] as const;
export type DigestStatus = (typeof DIGEST_STATUSES)[number];

/** What asked for it: its schedule, or someone through the API. */
export const DIGEST_KINDS = ['scheduled', 'on-demand'] as const;
export type DigestKind = (typeof DIGEST_KINDS)[number];

/** How one webhook took a digest. */
export interface DigestDelivery {
  webhook: string;
  format: 'json' | 'slack';
  status: 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

/**
 * One digest sent (or being sent), with what it said. Its key names the schedule's instant, which
 * every node's schedule shares, so a scheduled one goes out once across restarts and a fleet.
 */
export interface DigestRecord {
  id: number;
  key: string;
  kind: DigestKind;
  node: string;
  requestedBy: string;
  periodFrom: number;
  periodTo: number;
  claimedAt: number;
  finishedAt: number | null;
  status: DigestStatus;
  deliveries: DigestDelivery[];
  summary: string;
  /** The digest as the API answers it (times as ISO strings): what its readers were sent. */
  content: Record<string, unknown>;
}

/** A digest a node means to send; the store answers it only to the node whose insert takes its key. */
export type DigestClaim = Pick<DigestRecord, 'key' | 'kind' | 'node' | 'requestedBy' | 'periodFrom' | 'periodTo' | 'summary' | 'content'>;

export interface DigestOutcome {
  status: 'delivered' | 'failed' | 'no-channels';
  deliveries: DigestDelivery[];
}

export interface DigestQuery {
  /** Newest first, at most this many (default 20). */
  limit?: number;
  /** Only those claimed before this id: the next page. */
  before?: number;
}
