import type { Pool } from 'pg';

export interface ScanIndex {
  index: string;
  /** The index's WHERE clause as Postgres prints it; null for an index over every row. */
  predicate: string | null;
}

/**
 * The index Postgres reads a query through when it may not scan the whole table, with that index's predicate:
 * what a test needs to show that a queue's scan reads a partial index, one that holds only the rows still to
 * do. Sequential and bitmap scans are off for the one transaction, so an empty test table still shows the plan
 * a busy one gets; undefined when no index can serve the query.
 */
export async function scanIndexOf(pool: Pool, query: string): Promise<ScanIndex | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_bitmapscan = off');
    const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) ${query}`,
    );
    const plan = explained.rows[0]?.['QUERY PLAN'][0]?.Plan;
    const index = plan && firstIndexName(plan);
    if (index === undefined) return undefined;
    const described = await client.query<{ predicate: string | null }>(
      `SELECT pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [index],
    );
    return { index, predicate: described.rows[0]?.predicate ?? null };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function firstIndexName(node: PlanNode): string | undefined {
  if (node['Index Name'] !== undefined) return node['Index Name'];
  for (const child of node.Plans ?? []) {
    const found = firstIndexName(child);
    if (found !== undefined) return found;
  }
  return undefined;
}
