import { eq } from 'drizzle-orm';
import type { Era } from '../protocol/vocabulary.js';
import { isWorkRequest } from '../protocol/work-request.js';
import { listTraffic } from '../store/sqlite/list-traffic.js';
import type { Db } from '../store/sqlite/open-database.js';
import { settingsTable } from '../store/sqlite/schema/index.js';
import type { DemoDay } from './plan-demo-pace.js';
import { DEMO_HISTORY_NODE, DEMO_HISTORY_SETTING } from './seed-demo-history.js';

const DAY_MS = 86_400_000;
/** A week, so weekdays and the quieter weekend both count. */
const MEASURED_DAYS = 7;

/**
 * The average day of the seeded history's last full week before it was seeded: served work
 * requests and their legacy share. Undefined when the database holds no seeded history.
 */
export function measureDemoHistoryDay(db: Db): DemoDay | undefined {
  const seededAt = db.select().from(settingsTable).where(eq(settingsTable.key, DEMO_HISTORY_SETTING)).get()?.value;
  if (seededAt === undefined) return undefined;
  const to = Math.floor(Date.parse(seededAt) / DAY_MS) * DAY_MS;
  const servedWork = (era: Era): number => {
    const { totals } = listTraffic(db, {
      from: to - MEASURED_DAYS * DAY_MS,
      to,
      bucket: 'day',
      groupBy: 'method',
      filters: { node: DEMO_HISTORY_NODE, era, kind: 'request', outcome: 'served' },
    });
    return Object.entries(totals).reduce((sum, [method, count]) => (isWorkRequest('request', method) ? sum + count : sum), 0);
  };
  const legacy = servedWork('legacy');
  const total = legacy + servedWork('modern');
  return total > 0 ? { workRequests: total / MEASURED_DAYS, legacyShare: legacy / total } : undefined;
}
