/**
 * The cast of the seeded demo history: a few identifiable integrations that carry most of the
 * remaining legacy volume, two that migrated, two modern-only ones, and the anonymous installed
 * base. Four of them carry on live as the demo's own clients. Pure data; seed-demo-history.ts
 * turns it into counts.
 */
import type { Transport } from '../protocol/vocabulary.js';
import type { IntegrationChanges } from '../store/records/integration-record.js';
import type { DemoClientKind } from './run-demo-session.js';

export interface DemoLegacyPath {
  version: string;
  transport: Transport;
  /** Relative weight among this caller's legacy paths at the start of the history. */
  weight: number;
  /** The weight halves every this many days: an installed base slowly upgrading off an old version. */
  halfLifeDays?: number;
}

export interface DemoHistoryCaller {
  key: string;
  source: string;
  clientInfo?: { name: string; version: string };
  /** First seen this many days before now. */
  sinceDays: number;
  /** Weight in the day's legacy volume at the start of the history and once the decline is over. */
  legacy: { early: number; late: number; paths: DemoLegacyPath[] };
  /** Weight in the day's modern volume, early and late. */
  modern: { early: number; late: number; transport: Transport; negotiates: boolean };
  /** What an operator has written down about it, if anything. */
  registry?: IntegrationChanges;
  /**
   * The live demo client that carries on as this caller: its paths here are the ones that client
   * takes, and the seed files this caller under the key the sidecar computes for that client.
   */
  live?: DemoClientKind;
}

const streamable = (version: string, weight = 1): DemoLegacyPath => ({ version, transport: 'streamable-http', weight });

export const DEMO_HISTORY_CALLERS: readonly DemoHistoryCaller[] = [
  {
    key: 'tok_5e0c2a91d4b7f318',
    source: 'bearer-fingerprint',
    clientInfo: { name: 'report-exporter', version: '1.4.2' },
    sinceDays: 180,
    legacy: { early: 0.12, late: 0.45, paths: [streamable('2025-11-25')] },
    modern: { early: 0, late: 0, transport: 'streamable-http', negotiates: false },
    registry: {
      displayName: 'Nightly report exporter',
      owner: 'Data Platform',
      contact: 'data-platform@example.com',
      status: 'contacted',
      notes: 'Cron image pins an old SDK; upgrade tracked in DATA-412.',
    },
    live: 'legacy-http',
  },
  {
    key: 'crm-sync',
    source: 'static-map',
    clientInfo: { name: 'crm-connector', version: '3.2.0' },
    sinceDays: 180,
    legacy: { early: 0.08, late: 0.22, paths: [{ version: '2025-11-25', transport: 'http+sse', weight: 1 }] },
    modern: { early: 0, late: 0, transport: 'streamable-http', negotiates: false },
    live: 'legacy-sse',
  },
  {
    key: 'tok_a17f3b9c06e2d845',
    source: 'bearer-fingerprint',
    clientInfo: { name: 'support-bot', version: '0.9.1' },
    sinceDays: 180,
    legacy: { early: 0.24, late: 0.06, paths: [streamable('2025-11-25')] },
    modern: { early: 0.02, late: 0.16, transport: 'streamable-http', negotiates: false },
    registry: {
      displayName: 'Support bot',
      owner: 'Customer Support Tools',
      contact: '#support-tools',
      status: 'migrating',
      notes: 'Half the fleet runs the new SDK; the rest follows this quarter.',
    },
  },
  {
    key: 'tok_c4d92e07b1a3f560',
    source: 'bearer-fingerprint',
    clientInfo: { name: 'ide-assistant', version: '2.3.0' },
    sinceDays: 180,
    legacy: { early: 0.32, late: 0, paths: [streamable('2025-11-25', 0.7), streamable('2025-06-18', 0.3)] },
    // Pinned to the modern version, yet it asks server/discover once per connection, as the v2 SDK does.
    modern: { early: 0.05, late: 0.24, transport: 'streamable-http', negotiates: true },
    registry: { displayName: 'IDE assistant', owner: 'Developer Experience', status: 'done', notes: 'Moved to the stateless era in one release.' },
    live: 'modern-pin',
  },
  {
    key: 'tok_09b8e6f1a2c3d4e5',
    source: 'bearer-fingerprint',
    clientInfo: { name: 'web-agent', version: '2.4.0' },
    sinceDays: 150,
    legacy: { early: 0, late: 0, paths: [] },
    modern: { early: 0.4, late: 0.3, transport: 'streamable-http', negotiates: true },
    live: 'modern-auto',
  },
  {
    key: 'stdio:local-indexer',
    source: 'configured-name',
    sinceDays: 120,
    legacy: { early: 0, late: 0, paths: [] },
    modern: { early: 0.04, late: 0.05, transport: 'stdio', negotiates: false },
  },
  {
    key: 'anonymous',
    source: 'anonymous',
    sinceDays: 180,
    legacy: {
      early: 0.24,
      late: 0.27,
      // 2025-03-26 fades steadily (halving every nine weeks), so a plan retiring that version is on track.
      paths: [
        streamable('2025-11-25', 0.25),
        streamable('2025-06-18', 0.2),
        { version: '2025-03-26', transport: 'streamable-http', weight: 0.4, halfLifeDays: 63 },
        { version: '2025-03-26', transport: 'http+sse', weight: 0.15, halfLifeDays: 63 },
      ],
    },
    modern: { early: 0.49, late: 0.25, transport: 'streamable-http', negotiates: true },
  },
];
