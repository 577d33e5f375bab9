import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreDialect } from './store.js';

/**
 * A dialect's migrations folder, `migrations/<dialect>`, which ships beside `server/` (source) or
 * `dist/server/` (built): looked for from this folder up to the package's root.
 */
export function findMigrationsFolder(dialect: StoreDialect): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    const candidate = join(dir, 'migrations', dialect);
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('migrations folder not found next to the installed package');
}
