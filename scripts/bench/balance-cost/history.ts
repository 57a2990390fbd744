import { Client } from 'pg';

/** Ledger transactions written per database transaction: a few seconds each, and progress to show. */
const CHUNK = 200_000;

/**
 * Gives a test-mode merchant `movements` past movements, written straight into the stack's ledger schema as
 * the ledger itself books an operator's adjustment: a record in `adjustments`, a ledger transaction, a posting
 * to the merchant's `available` and one to Sika's `adjustments` account, and an `adjustment` movement, dated
 * over the `days` before now. The database's own triggers check each ledger transaction's balance and keep
 * the accounts' balances, and `sika audit` finds the books consistent afterwards. Returns the merchant's
 * available balance afterwards.
 */
export async function seedHistory(
  adminDatabaseUrl: string,
  options: {
    merchantId: string;
    movements: number;
    amount: number;
    days: number;
    progress: (text: string) => void;
  },
): Promise<bigint> {
  const { merchantId, movements, amount, days } = options;
  const client = new Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query('SET search_path TO ledger');
    await client.query(
      `INSERT INTO accounts (owner_id, livemode, kind)
       VALUES ($1, false, 'available'), ('sika', false, 'adjustments')
       ON CONFLICT (owner_id, livemode, kind) DO NOTHING`,
      [merchantId],
    );
    const stepMs = (days * 86_400_000) / movements;
    const start = Date.now() - days * 86_400_000;
    for (let first = 1; first <= movements; first += CHUNK) {
      const last = Math.min(movements, first + CHUNK - 1);
      await client.query('BEGIN');
      await client.query(
        `CREATE TEMPORARY TABLE seed ON COMMIT DROP AS
         SELECT n, 'adj_' || substr(md5($1 || n), 1, 24) AS id,
                'txn_' || substr(md5($1 || 'txn' || n), 1, 24) AS movement_id,
                to_timestamp(($4::float8 + n * $5::float8) / 1000) AS created_at
           FROM generate_series($2::int, $3::int) AS n`,
        [merchantId, first, last, start, stepMs],
      );
      await client.query(
        `INSERT INTO adjustments (id, merchant_id, livemode, amount, reason, requested_by, idempotency_key, created_at)
         SELECT id, $1, false, $2, 'history of pnpm bench:balance', 'bench:balance', id, created_at FROM seed`,
        [merchantId, amount],
      );
      await client.query(
        `INSERT INTO ledger_transactions (kind, source_id, created_at)
         SELECT 'adjustment', id, created_at FROM seed ORDER BY n`,
      );
      await client.query(
        `INSERT INTO postings (ledger_transaction_id, account_id, amount)
         SELECT t.id, a.id, CASE WHEN a.kind = 'available' THEN $2::bigint ELSE -$2::bigint END
           FROM seed s
           JOIN ledger_transactions t ON t.source_id = s.id AND t.kind = 'adjustment'
           JOIN accounts a ON a.livemode = false
                          AND ((a.owner_id = $1 AND a.kind = 'available')
                               OR (a.owner_id = 'sika' AND a.kind = 'adjustments'))`,
        [merchantId, amount],
      );
      await client.query(
        `INSERT INTO balance_transactions
                (id, merchant_id, livemode, type, amount, currency, source_id, ledger_transaction_id, created_at)
         SELECT s.movement_id, $1, false, 'adjustment', $2, 'XOF', s.id, t.id, s.created_at
           FROM seed s JOIN ledger_transactions t ON t.source_id = s.id AND t.kind = 'adjustment'
          ORDER BY s.n`,
        [merchantId, amount],
      );
      await client.query('COMMIT');
      options.progress(
        `${merchantId}: ${last.toLocaleString('en-US')} of ${movements.toLocaleString('en-US')} movements`,
      );
    }
    // Fresh statistics for the new rows, as autovacuum would give them (this machine runs without it).
    await client.query('ANALYZE accounts, postings, balance_transactions, ledger_transactions, adjustments');
    const { rows } = await client.query<{ balance: string }>(
      "SELECT balance::text FROM accounts WHERE owner_id = $1 AND livemode = false AND kind = 'available'",
      [merchantId],
    );
    return BigInt(rows[0]?.balance ?? '0');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * How long the ledger's former reading of a balance takes for this merchant: the sum of all its postings
 * (`accountTotals` before balances were maintained), the median of `times` runs, in milliseconds.
 */
export async function formerBalanceReadMs(
  adminDatabaseUrl: string,
  merchantId: string,
  times: number,
): Promise<number> {
  const client = new Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query('SET search_path TO ledger');
    const durations: number[] = [];
    for (let run = 0; run < times; run += 1) {
      const started = performance.now();
      await client.query(
        `SELECT a.kind, COALESCE(SUM(p.amount), 0)::bigint AS total
           FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
          WHERE a.owner_id = $1 AND a.livemode = false
          GROUP BY a.kind`,
        [merchantId],
      );
      durations.push(performance.now() - started);
    }
    durations.sort((a, b) => a - b);
    return durations[Math.floor(durations.length / 2)] ?? NaN;
  } finally {
    await client.end();
  }
}
