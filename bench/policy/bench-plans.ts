/**
 * The retirement plans the policy bench runs the sidecar under, as POST /api/v1/plans bodies. The
 * bench traffic is a modern 2026-07-28 `tools/call` (mcp-request.ts), so:
 * - `sidecar-deny-out` denies the legacy era, already cut: every request is judged and is outside it;
 * - `sidecar-warn-in` warns about 2026-07-28, announced: every answer gains Deprecation, Sunset, Link.
 */
import { MODERN_VERSION } from '../load/mcp-request.js';

const DAY_MS = 86_400_000;
const day = (now: number, offsetDays: number) => new Date(now + offsetDays * DAY_MS).toISOString().slice(0, 10);

export const BENCH_PLANS = {
  'sidecar-deny-out': (now: number) => ({
    name: 'Retire the legacy era',
    scope: { kind: 'era', value: 'legacy' },
    announceDate: day(now, -90),
    retireDate: day(now, -1),
    policyUrl: 'https://example.com/retire-legacy',
    action: 'deny',
  }),
  'sidecar-warn-in': (now: number) => ({
    name: `Retire ${MODERN_VERSION}`,
    scope: { kind: 'version', value: MODERN_VERSION },
    announceDate: day(now, -30),
    retireDate: day(now, 365),
    policyUrl: 'https://example.com/retire-version',
    action: 'warn',
  }),
} as const;
