import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/store/postgres/schema/index.ts',
  out: './migrations/postgres',
  strict: true,
});
