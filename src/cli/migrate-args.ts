// The arguments of `npm run db:migrate-to-postgres` (issue 23), checked before anything is opened:
// --from an existing file, --to a PostgreSQL URL, --batch rows per statement. Untrusted input: an
// unknown option, a stray argument or a bad value is one line saying which.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parsePostgresUrl } from '../db/pg-connect';

export const USAGE =
  'usage: npm run db:migrate-to-postgres -- --from path/to/mafia.sqlite --to postgres://user:password@host:5432/database [--batch N]';

export type MigrateArgs = { ok: true; from: string; to: URL; batch: number | undefined } | { ok: false; error: string };

export function parseMigrateArgs(argv: string[]): MigrateArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, batch: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { ok: false, error: `${(e as Error).message}; ${USAGE}` };
  }
  if (!values.from) return { ok: false, error: `needs --from FILE; ${USAGE}` };
  if (!values.to) return { ok: false, error: `needs --to URL; ${USAGE}` };
  let batch: number | undefined;
  if (values.batch !== undefined) {
    batch = /^\d{1,6}$/.test(values.batch) ? Number(values.batch) : NaN;
    if (!(batch >= 1 && batch <= 100_000))
      return { ok: false, error: '--batch must be a whole number of rows from 1 to 100000' };
  }
  const from = resolve(values.from);
  if (!existsSync(from)) return { ok: false, error: `no database file at ${from}` };
  if (!statSync(from).isFile()) return { ok: false, error: `${from} is not a file` };
  let to: URL;
  try {
    to = parsePostgresUrl(values.to);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  return { ok: true, from, to, batch };
}
