import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './server/store/sqlite/schema/index.ts',
  out: './migrations/sqlite',
  strict: true,
});
