// drizzle-kit for PostgreSQL (issue 23): `npm run db:generate` writes the SQL migrations of
// src/db/schema-pg.ts (generated from src/db/schema.ts by tools/pg-schema.ts) into migrations-pg/.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema-pg.ts',
  out: './migrations-pg',
});
