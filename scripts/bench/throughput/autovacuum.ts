import { Client } from 'pg';
import { withDatabase } from '../../db/urls';
import { adminUrlFromEnv } from '../../stack/infra';

/** What the stand-in did, for the report. */
export interface AutovacuumCounts {
  rounds: number;
  analyzed: number;
  vacuumed: number;
  /** Rounds that failed (the database restarting, say): the figures then come from staler statistics. */
  failed: number;
}

interface TableNeeds {
  schemaname: string;
  relname: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * Tables past autovacuum's own thresholds, read from the server's settings: a VACUUM once dead rows pass
 * `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows`, an ANALYZE once changes since the last
 * one pass `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × rows` (the rules of
 * https://www.postgresql.org/docs/current/routine-vacuuming.html#AUTOVACUUM).
 */
const TABLES_DUE = `
  WITH settings AS (
    SELECT max(setting::float8) FILTER (WHERE name = 'autovacuum_vacuum_threshold') AS vacuum_base,
           max(setting::float8) FILTER (WHERE name = 'autovacuum_vacuum_scale_factor') AS vacuum_scale,
           max(setting::float8) FILTER (WHERE name = 'autovacuum_analyze_threshold') AS analyze_base,
           max(setting::float8) FILTER (WHERE name = 'autovacuum_analyze_scale_factor') AS analyze_scale
      FROM pg_settings WHERE name LIKE 'autovacuum_%')
  SELECT t.schemaname, t.relname,
         t.n_dead_tup > s.vacuum_base + s.vacuum_scale * greatest(c.reltuples, 0) AS vacuum,
         t.n_mod_since_analyze > s.analyze_base + s.analyze_scale * greatest(c.reltuples, 0) AS analyze
    FROM pg_stat_user_tables t JOIN pg_class c ON c.oid = t.relid CROSS JOIN settings s`;

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Production's PostgreSQL runs autovacuum; this machine's (its CI configuration) does not, so without a stand-in
 * a benchmark measures tables whose dead rows are never removed and whose statistics, hence plans, stay those of
 * an empty database. At start, then every `naptimeMs` (autovacuum_naptime, a minute unless set), the stand-in vacuums
 * and analyzes each table of the stack's database that autovacuum would, by the server's own thresholds.
 */
export async function startAutovacuumStandIn(
  database: string,
  naptimeMs: number,
): Promise<{ stop(): Promise<AutovacuumCounts> }> {
  const client = new Client({ connectionString: withDatabase(adminUrlFromEnv(process.env), database) });
  await client.connect();
  const counts: AutovacuumCounts = { rounds: 0, analyzed: 0, vacuumed: 0, failed: 0 };
  const runRound = async () => {
    // A session keeps the stats it read for the rest of its transaction; clear them to see new counts.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<TableNeeds>(TABLES_DUE);
    for (const { schemaname, relname, vacuum, analyze } of rows) {
      if (!vacuum && !analyze) continue;
      const table = `${quoted(schemaname)}.${quoted(relname)}`;
      await client.query(vacuum ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`);
      if (vacuum) counts.vacuumed += 1;
      counts.analyzed += 1;
    }
    counts.rounds += 1;
  };
  const countedRound = () =>
    runRound().catch(() => {
      counts.failed += 1;
    });
  // A first round at once: a production database has been kept by autovacuum all along, so the measured load
  // starts on current statistics (after the warm-up run the benchmark's docs ask for), not on an empty table's.
  let round = countedRound();
  const timer = setInterval(() => {
    round = round.then(countedRound);
  }, naptimeMs);
  return {
    async stop() {
      clearInterval(timer);
      await round;
      await client.end();
      return counts;
    },
  };
}
