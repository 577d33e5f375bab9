import { defineConfig } from 'drizzle-kit';

// The default dialect, so a bare `drizzle-kit` finds it; Postgres has drizzle.postgres.config.ts beside it.

export default defineConfig({
  dialect: 'sqlite',
  schema: './server/store/sqlite/schema/index.ts',
  out: './migrations/sqlite',
  strict: true,
});
