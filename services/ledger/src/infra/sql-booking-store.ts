import {
  AppError,
  firstOfEachKey,
  newId,
  PreparedQuery,
  StatementBatcher,
  type Database,
} from '@sika/platform';
import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  BookingStore,
  PayoutRelease,
  RecordedAdjustment,
  RecordedCredit,
  RecordedPayoutMovement,
} from '../app/ports';
import { SYSTEM_OWNER, type AccountRef } from '../domain/accounts';
import type { Posting } from '../domain/double-entry';
import {
  CURRENCY,
  type BalanceTransaction,
  type BalanceTransactionType,
} from '../domain/balance-transaction';
import {
  ADJUSTMENT_KIND,
  type Adjustment,
  type AdjustmentPlan,
  type AdjustmentRequest,
} from '../domain/adjustment';
import {
  PAYOUT_KINDS,
  planPayoutRelease,
  RELEASE_KINDS,
  type PayoutOutcome,
  type PayoutReservationPlan,
} from '../domain/payout';
import type { PaymentCreditPlan, PlannedMovement } from '../domain/payment-credit';
import type { DB } from '../generated/database';
import type { Scope } from '@sika/platform/pure';
import { availableBalance } from './account-balances';
import {
  BALANCE_TRANSACTION_COLUMNS,
  toBalanceTransaction,
  type BalanceTransactionRow,
} from './balance-transaction-row';

const PAYMENT_CREDIT = 'payment_credit';
/** The lock of everything done to one payout (its reservation and its release). */
const PAYOUT_LOCK = 'payout';
/** The lock of one merchant's balance in one mode, taken by what may lower it. */
const BALANCE_LOCK = 'balance';
/** The lock of one adjustment idempotency key. */
const ADJUSTMENT_KEY_LOCK = 'adjustment_key';

/** The columns of `adjustments` the queries below select. */
const ADJUSTMENT_COLUMNS = [
  'id',
  'merchant_id',
  'livemode',
  'amount',
  'reason',
  'requested_by',
  'idempotency_key',
  'created_at',
] as const;
type AdjustmentRow = Pick<Selectable<DB['adjustments']>, (typeof ADJUSTMENT_COLUMNS)[number]>;

/** Ledger transactions one statement of writeOnce writes at most. */
const MAX_BATCH = 100;

/**
 * The ledger's writes: payment credits, system transfers, payout reservations and releases, adjustments; each
 * once per source, serialized where it may lower a balance.
 */
export class SqlBookingStore implements BookingStore {
  private readonly writesOnce = new StatementBatcher(
    (inputs: readonly LedgerTransactionInput[]) => writeLedgerTransactions(this.db, inputs),
    { maxBatchSize: MAX_BATCH },
  );

  /** The accounts created or found by this process, by their owners, kinds and mode (accountsReady). */
  private readonly accounts = new Map<string, Promise<void>>();

  /** Statements outside a transaction run on `db`; the transactions of reservePayout and the like on `transact`. */
  constructor(private readonly db: Kysely<DB> & Pick<Database<DB>, 'transact'>) {}

  /** The payment's credit, once (writeOnce); a repeat reads back the movements of the first. */
  async recordPaymentCredit(input: {
    scope: Scope;
    paymentId: string;
    plan: PaymentCreditPlan;
    createdAt: Date;
  }): Promise<RecordedCredit> {
    const { scope, paymentId, plan, createdAt } = input;
    const written = await this.writeOnce({
      scope,
      kind: PAYMENT_CREDIT,
      sourceId: paymentId,
      postings: plan.postings,
      movements: plan.movements,
      createdAt,
    });
    if (written !== null) return { created: true, movements: written };
    const types = plan.movements.map((movement) => movement.type);
    const existing = await this.db
      .selectFrom('balance_transactions')
      .select(BALANCE_TRANSACTION_COLUMNS)
      .where('source_id', '=', paymentId)
      .where('type', '=', sql<string>`ANY (${types}::text[])`)
      .orderBy('seq')
      .execute();
    return { created: false, movements: existing.map(toBalanceTransaction) };
  }

  reservePayout(input: {
    scope: Scope;
    payoutId: string;
    createdAt: Date;
    plan: (available: bigint) => PayoutReservationPlan;
  }): Promise<RecordedPayoutMovement> {
    const { scope, payoutId, createdAt } = input;
    return this.db.transact(async (tx) => {
      await lockSource(tx, PAYOUT_LOCK, payoutId);
      const existing = await findMovement(tx, payoutId, 'payout');
      if (existing) return { created: false, movement: existing };
      // What may lower a balance waits for the others here, so each reads what the previous ones left; a credit
      // committed after the read only adds to it.
      await lockBalance(tx, scope);
      const plan = input.plan(await availableBalance(tx, scope));
      await ensureAccounts(tx, scope, plan.postings);
      const [movement] = await writeNewLedgerTransaction(tx, {
        scope,
        kind: PAYOUT_KINDS.reservation,
        sourceId: payoutId,
        postings: plan.postings,
        movements: [{ type: 'payout', amount: -plan.amount }],
        createdAt,
      });
      if (!movement) throw new Error(`the payout movement of ${payoutId} was not written`);
      return { created: true, movement };
    });
  }

  releasePayout(input: {
    scope: Scope;
    payoutId: string;
    outcome: PayoutOutcome;
    createdAt: Date;
  }): Promise<PayoutRelease> {
    const { scope, payoutId, outcome, createdAt } = input;
    return this.db.transact(async (tx) => {
      await lockSource(tx, PAYOUT_LOCK, payoutId);
      const reservation = await findMovement(tx, payoutId, 'payout');
      if (
        !reservation ||
        reservation.merchantId !== scope.merchantId ||
        reservation.livemode !== scope.livemode
      ) {
        throw new AppError('resource_missing', `No reservation of payout ${payoutId} in this scope.`, {
          param: 'payout_id',
        });
      }
      const released = await tx
        .selectFrom('ledger_transactions')
        .select('kind')
        .where('source_id', '=', payoutId)
        .where('kind', '=', sql<string>`ANY (${Object.values(RELEASE_KINDS)}::text[])`)
        .execute();
      const kind = RELEASE_KINDS[outcome];
      if (released.some((row) => row.kind !== kind)) {
        // Its transfer has one outcome: two different ones are a bug upstream, never something to book.
        throw new Error(`payout ${payoutId} was already released with another outcome than ${outcome}`);
      }
      if (released.length > 0) return { created: false };
      const amount = -reservation.amount;
      const postings = planPayoutRelease(outcome, amount);
      await ensureAccounts(tx, scope, postings);
      await writeNewLedgerTransaction(tx, {
        scope,
        kind,
        sourceId: payoutId,
        postings,
        movements: outcome === 'paid' ? [] : [{ type: 'payout_reversal', amount }],
        createdAt,
      });
      return { created: true };
    });
  }

  recordAdjustment(input: {
    scope: Scope;
    request: AdjustmentRequest;
    createdAt: Date;
    plan: (available: bigint) => AdjustmentPlan;
  }): Promise<RecordedAdjustment> {
    const { scope, request, createdAt } = input;
    return this.db.transact(async (tx) => {
      await lockSource(tx, ADJUSTMENT_KEY_LOCK, request.idempotencyKey);
      const existing = await tx
        .selectFrom('adjustments')
        .select(ADJUSTMENT_COLUMNS)
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirst();
      if (existing) {
        const movement = await findMovement(tx, existing.id, 'adjustment');
        if (!movement) throw new Error(`the movement of adjustment ${existing.id} is missing`);
        return { created: false, adjustment: toAdjustment(existing), movement };
      }
      await lockBalance(tx, scope);
      const plan = input.plan(await availableBalance(tx, scope));
      await ensureAccounts(tx, scope, plan.postings);
      const adjustment: Adjustment = {
        ...request,
        id: newId('adj'),
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        createdAt,
      };
      await tx
        .insertInto('adjustments')
        .values({
          id: adjustment.id,
          merchant_id: adjustment.merchantId,
          livemode: adjustment.livemode,
          amount: adjustment.amount,
          reason: adjustment.reason,
          requested_by: adjustment.requestedBy,
          idempotency_key: adjustment.idempotencyKey,
          created_at: createdAt,
        })
        .execute();
      const [movement] = await writeNewLedgerTransaction(tx, {
        scope,
        kind: ADJUSTMENT_KIND,
        sourceId: adjustment.id,
        postings: plan.postings,
        movements: plan.movements,
        createdAt,
      });
      if (!movement) throw new Error(`the movement of adjustment ${adjustment.id} was not written`);
      return { created: true, adjustment, movement };
    });
  }

  async recordSystemTransfer(input: {
    scope: Scope;
    kind: string;
    sourceId: string;
    postings: Posting[];
    createdAt: Date;
  }): Promise<boolean> {
    return (await this.writeOnce({ ...input, movements: [] })) !== null;
  }

  /**
   * writeLedgerTransaction in one statement committed by itself, with the others arriving in the same turn of
   * the event loop (StatementBatcher: under load one statement and one commit serve many credits); null when
   * the ledger transaction of this (sourceId, kind) exists (a concurrent one waits on the unique key for the
   * first to commit or roll back). Its accounts exist before: see accountsReady.
   */
  private async writeOnce(input: LedgerTransactionInput): Promise<BalanceTransaction[] | null> {
    await this.accountsReady(input.scope, input.postings);
    return this.writesOnce.write(input);
  }

  /**
   * Creates the accounts a write posts to, once per process and set of accounts (accounts are never deleted). A
   * new merchant's first credits arrive together: writing them before its accounts existed failed each batch
   * statement they shared and wrote everything again (about 5,000 rows written for nothing at the start of each
   * benchmark's paid phase, measured 2026-11-29), so the first one creates them and the others wait for it.
   */
  private accountsReady(scope: Scope, postings: readonly Posting[]): Promise<void> {
    const { ownerIds, kinds } = accountsOf(scope, postings);
    const key =
      ownerIds.map((ownerId, index) => `${ownerId}/${kinds[index]}`).join(' ') + ` ${scope.livemode}`;
    let ready = this.accounts.get(key);
    if (ready === undefined) {
      ready = ensureAccounts(this.db, scope, postings);
      this.accounts.set(key, ready);
      // A failure (the database restarting) is not remembered: the next write tries again.
      void ready.catch(() => this.accounts.delete(key));
    }
    return ready;
  }
}

/**
 * Serializes, until the transaction ends, what may lower the merchant's balance in the scope's mode (payout
 * reservations, negative adjustments): each then reads the balance the previous one left.
 */
function lockBalance(tx: Kysely<DB>, scope: Scope): Promise<void> {
  return lockSource(tx, BALANCE_LOCK, `${scope.merchantId}:${scope.livemode}`);
}

/** The movement of this type of a source (a payout, an adjustment), if written. */
async function findMovement(
  tx: Kysely<DB>,
  sourceId: string,
  type: BalanceTransactionType,
): Promise<BalanceTransaction | undefined> {
  const row = await tx
    .selectFrom('balance_transactions')
    .select(BALANCE_TRANSACTION_COLUMNS)
    .where('source_id', '=', sourceId)
    .where('type', '=', type)
    .executeTakeFirst();
  return row && toBalanceTransaction(row);
}

/**
 * Serializes, until the transaction ends, the writers of one operation on one source (a payout's reservation
 * or release), so the later finds what the first wrote.
 */
async function lockSource(tx: Kysely<DB>, kind: string, sourceId: string): Promise<void> {
  await tx
    .selectNoFrom((eb) =>
      eb
        .fn('pg_advisory_xact_lock', [eb.fn('hashtextextended', [eb.val(`${kind}:${sourceId}`), eb.lit(0)])])
        .as('locked'),
    )
    .execute();
}

/** A ledger transaction to write: its postings and its merchant-facing movements. */
interface LedgerTransactionInput {
  scope: Scope;
  kind: string;
  sourceId: string;
  postings: Posting[];
  movements: readonly PlannedMovement[];
  createdAt: Date;
}

/**
 * A ledger transaction, its postings and its merchant-facing movements, in one statement; returns the
 * movements, or null when the ledger transaction of this (sourceId, kind) exists already (then nothing is
 * written). The accounts of the postings must exist (ensureAccounts): a missing one fails the insert of its
 * posting (its account_id, from the join, is null; the column is not null) instead of dropping it.
 */
async function writeLedgerTransaction(
  db: Kysely<DB>,
  input: LedgerTransactionInput,
): Promise<BalanceTransaction[] | null> {
  const [movements] = await writeLedgerTransactions(db, [input]);
  if (movements === undefined)
    throw new Error(`ledger transaction ${input.kind} of ${input.sourceId} unanswered`);
  return movements;
}

/** The arrays of writeLedgerTransactions' statement: one per column of its items, postings and movements. */
interface WriteValues {
  kinds: string[];
  sourceIds: string[];
  createdAts: Date[];
  livemodes: boolean[];
  merchantIds: string[];
  postingItems: number[];
  postingOwnerIds: string[];
  postingKinds: string[];
  postingAmounts: string[];
  movementItems: number[];
  movementIds: string[];
  movementTypes: string[];
  movementAmounts: string[];
}

// All postings in one INSERT: the database checks the balance of each ledger transaction's postings.
// Movements are inserted in the plans' order, so `seq` lists a fee after the payment it was taken from. Each
// ledger transaction inserted has a row in the last SELECT (of nulls without movements); one that existed
// has none. The arrays are unnested from sub-selects so that the plan stays generic.
function writeStatementOf(values: WriteValues, db: Kysely<DB>) {
  const itemRows = sql<{
    kind: string;
    source_id: string;
    created_at: Date;
    livemode: boolean;
    merchant_id: string;
    item: bigint;
  }>`unnest((SELECT ${values.kinds}::text[]),
          (SELECT ${values.sourceIds}::text[]),
          (SELECT ${values.createdAts}::timestamptz[]),
          (SELECT ${values.livemodes}::boolean[]),
          (SELECT ${values.merchantIds}::text[]))
        WITH ORDINALITY`.as<'i'>(sql`i (kind, source_id, created_at, livemode, merchant_id, item)`);
  const postingRows = sql<{ item: bigint; owner_id: string; kind: string; amount: bigint }>`unnest(
          (SELECT ${values.postingItems}::bigint[]), (SELECT ${values.postingOwnerIds}::text[]),
          (SELECT ${values.postingKinds}::text[]),
          (SELECT ${values.postingAmounts}::bigint[]))`.as<'p'>(sql`p (item, owner_id, kind, amount)`);
  const movementRows = sql<{
    item: bigint;
    id: string;
    type: string;
    amount: bigint;
    position: bigint;
  }>`unnest(
          (SELECT ${values.movementItems}::bigint[]),
          (SELECT ${values.movementIds}::text[]),
          (SELECT ${values.movementTypes}::text[]),
          (SELECT ${values.movementAmounts}::bigint[]))
        WITH ORDINALITY`.as<'m'>(sql`m (item, id, type, amount, position)`);
  return db
    .with('item', (db) => db.selectFrom(itemRows).selectAll())
    .with('ledger_transaction', (db) =>
      db
        .insertInto('ledger_transactions')
        .columns(['kind', 'source_id', 'created_at'])
        .expression(db.selectFrom('item').select(['kind', 'source_id', 'created_at']).orderBy('item'))
        .onConflict((oc) => oc.columns(['source_id', 'kind']).doNothing())
        .returning(['id', 'kind', 'source_id']),
    )
    .with('written', (db) =>
      db
        .selectFrom('item as i')
        .innerJoin('ledger_transaction as t', (join) =>
          join.onRef('t.source_id', '=', 'i.source_id').onRef('t.kind', '=', 'i.kind'),
        )
        .select(['i.item', 't.id', 'i.livemode', 'i.merchant_id', 'i.source_id', 'i.created_at']),
    )
    .with('posted', (db) =>
      db
        .insertInto('postings')
        .columns(['ledger_transaction_id', 'account_id', 'amount'])
        .expression(
          db
            .selectFrom(postingRows)
            .innerJoin('written as w', 'w.item', 'p.item')
            .leftJoin('accounts as a', (join) =>
              join
                .onRef('a.owner_id', '=', 'p.owner_id')
                .onRef('a.livemode', '=', 'w.livemode')
                .onRef('a.kind', '=', 'p.kind'),
            )
            .select(['w.id', 'a.id', 'p.amount']),
        ),
    )
    .with('movements', (db) =>
      db
        .insertInto('balance_transactions')
        .columns([...BALANCE_TRANSACTION_COLUMNS, 'ledger_transaction_id'])
        .expression(
          db
            .selectFrom(movementRows)
            .innerJoin('written as w', 'w.item', 'm.item')
            // In the order of the columns inserted: INSERT … SELECT pairs them by position.
            .select((eb) => [
              'm.id',
              'w.merchant_id',
              'w.livemode',
              'm.type',
              'm.amount',
              eb.cast<string>(eb.val(CURRENCY), 'text').as('currency'),
              'w.source_id',
              'w.created_at',
              'w.id',
            ])
            .orderBy('m.position'),
        )
        .returning(['seq', 'ledger_transaction_id', ...BALANCE_TRANSACTION_COLUMNS]),
    )
    .selectFrom('written as w')
    .leftJoin('movements as m', 'm.ledger_transaction_id', 'w.id')
    .select(['w.item', ...BALANCE_TRANSACTION_COLUMNS.map((column) => `m.${column}` as const)])
    .orderBy('w.item')
    .orderBy('m.seq');
}

/** writeLedgerTransactions' statement, compiled once (PreparedQuery): every booking runs it. */
const writeStatement = new PreparedQuery((_param, values: WriteValues, db: Kysely<DB>) =>
  writeStatementOf(values, db),
);

/**
 * writeLedgerTransaction for several ledger transactions in one statement, each answered in order. Of two with
 * the same (sourceId, kind), only the first is written; the later one answers null, as a repeat does.
 */
async function writeLedgerTransactions(
  db: Kysely<DB>,
  inputs: readonly LedgerTransactionInput[],
): Promise<(BalanceTransaction[] | null)[]> {
  const written = firstOfEachKey(inputs, (input) => `${input.kind}/${input.sourceId}`);
  const items = written.map((input, index) => ({ input, item: index + 1 }));
  const postings = items.flatMap(({ input, item }) =>
    input.postings.map((posting) => ({ item, posting, ownerId: ownerIdOf(input.scope, posting.account) })),
  );
  const movements = items.flatMap(({ input, item }) =>
    input.movements.map((movement) => ({ item, movement })),
  );
  const rows = await writeStatement.execute(db, {
    kinds: written.map((input) => input.kind),
    sourceIds: written.map((input) => input.sourceId),
    createdAts: written.map((input) => input.createdAt),
    livemodes: written.map((input) => input.scope.livemode),
    merchantIds: written.map((input) => input.scope.merchantId),
    postingItems: postings.map((p) => p.item),
    postingOwnerIds: postings.map((p) => p.ownerId),
    postingKinds: postings.map((p) => p.posting.account.kind),
    postingAmounts: postings.map((p) => p.posting.amount.toString()),
    movementItems: movements.map((m) => m.item),
    movementIds: movements.map(() => newId('txn')),
    movementTypes: movements.map((m) => m.movement.type),
    movementAmounts: movements.map((m) => m.movement.amount.toString()),
  });
  const answers = new Map<LedgerTransactionInput, BalanceTransaction[]>();
  for (const row of rows) {
    const input = written[Number(row.item) - 1];
    if (input === undefined) throw new Error(`ledger transaction ${row.item} was not asked for`);
    const movementsOfInput = answers.get(input) ?? [];
    answers.set(input, movementsOfInput);
    if (typeof row.id === 'string') movementsOfInput.push(toBalanceTransaction(row as BalanceTransactionRow));
  }
  // Only the written inputs have rows: one that existed already, or a later one of the same key, is null.
  return inputs.map((input) => answers.get(input) ?? null);
}

/** writeLedgerTransaction where the caller checked, under its lock, that the ledger transaction is new. */
async function writeNewLedgerTransaction(
  tx: Kysely<DB>,
  input: LedgerTransactionInput,
): Promise<BalanceTransaction[]> {
  const movements = await writeLedgerTransaction(tx, input);
  if (movements === null)
    throw new Error(`ledger transaction ${input.kind} of ${input.sourceId} exists already`);
  return movements;
}

function ownerIdOf(scope: Scope, account: AccountRef): string {
  return account.owner === 'merchant' ? scope.merchantId : SYSTEM_OWNER;
}

/** The distinct accounts the postings name, as parallel arrays of owner ids and kinds. */
function accountsOf(scope: Scope, postings: readonly Posting[]): { ownerIds: string[]; kinds: string[] } {
  const seen = new Set<string>();
  const ownerIds: string[] = [];
  const kinds: string[] = [];
  for (const { account } of postings) {
    const ownerId = ownerIdOf(scope, account);
    const key = `${ownerId}/${account.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ownerIds.push(ownerId);
    kinds.push(account.kind);
  }
  return { ownerIds, kinds };
}

/**
 * Accounts are created on first use; a concurrent first use by another transaction is waited for, and the
 * statements after this one see its account.
 */
async function ensureAccounts(db: Kysely<DB>, scope: Scope, postings: readonly Posting[]): Promise<void> {
  const { ownerIds, kinds } = accountsOf(scope, postings);
  const wanted = sql<{
    owner_id: string;
    kind: string;
  }>`unnest(${ownerIds}::text[], ${kinds}::text[])`.as<'w'>(sql`w (owner_id, kind)`);
  await db
    .insertInto('accounts')
    .columns(['owner_id', 'livemode', 'kind'])
    .expression(
      db
        .selectFrom(wanted)
        .select((eb) => [
          'w.owner_id',
          eb.cast<boolean>(eb.val(scope.livemode), 'boolean').as('livemode'),
          'w.kind',
        ])
        .where(({ not, exists, selectFrom, lit }) =>
          not(
            exists(
              selectFrom('accounts as a')
                .select(lit(1).as('one'))
                .whereRef('a.owner_id', '=', 'w.owner_id')
                .where('a.livemode', '=', scope.livemode)
                .whereRef('a.kind', '=', 'w.kind'),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.columns(['owner_id', 'livemode', 'kind']).doNothing())
    .execute();
}

function toAdjustment(row: AdjustmentRow): Adjustment {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    amount: row.amount,
    reason: row.reason,
    requestedBy: row.requested_by,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
  };
}
