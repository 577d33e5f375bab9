/** UTC bucket arithmetic on epoch milliseconds. */

export const BUCKETS = ['minute', 'hour', 'day'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const BUCKET_MS: Readonly<Record<Bucket, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** The start of the UTC bucket containing `at`. Days start at 00:00 UTC. */
export function bucketStart(at: number, bucket: Bucket): number {
  const size = BUCKET_MS[bucket];
  return Math.floor(at / size) * size;
}
