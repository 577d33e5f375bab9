import type { Bucket } from '../../lib/time-bucket.js';

export interface ScopeRefusals {
  /** Requests in scope the sidecar refused (outcome `blocked`). */
  refused: number;
  /** Requests in scope a plan in dry run would have refused, and let through. */
  wouldBlock: number;
  /** The resolution the span was counted at: whole buckets of it that overlap the span. */
  bucket: Bucket;
}
