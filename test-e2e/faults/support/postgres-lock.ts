import { Client } from 'pg';
import { withDatabase } from '../../../scripts/db/urls';
import { adminUrlFromEnv } from '../../../scripts/stack/infra';

/**
 * Holds `LOCK TABLE <table> IN EXCLUSIVE MODE` in a session of its own for `ms`, as a long transaction or a
 * slow disk would: every writer of the table waits, past its callers' deadlines, and commits once it is
 * released. Resolves once the lock is held; `released` once it is let go.
 */
export async function holdTableLock(
  database: string,
  table: string,
  ms: number,
): Promise<{ released: Promise<void> }> {
  const client = new Client({ connectionString: withDatabase(adminUrlFromEnv(process.env), database) });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  const released = (async () => {
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  })();
  return { released };
}
