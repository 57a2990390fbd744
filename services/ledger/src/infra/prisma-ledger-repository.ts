import type { PrismaClient } from '../generated/prisma/client';
import type { BalanceTransaction as BalanceTransactionRow } from '../generated/prisma/client';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';
import { AppError, newId } from '@sika/platform';
import type {
  BalanceTransactionQuery,
  BooksAudit,
  LedgerRepository,
  ListCursor,
  PayoutRelease,
  RecordedCredit,
  RecordedPayoutMovement,
} from '../app/ports';
import {
  SYSTEM_OWNER,
  type AccountRef,
  type MerchantAccountKind,
  type SystemAccountKind,
} from '../domain/accounts';
import type { Posting } from '../domain/double-entry';
import {
  CURRENCY,
  isBalanceTransactionType,
  type BalanceTransaction,
  type BalanceTransactionType,
} from '../domain/balance-transaction';
import {
  PAYOUT_KINDS,
  planPayoutRelease,
  RELEASE_KINDS,
  type PayoutOutcome,
  type PayoutReservationPlan,
} from '../domain/payout';
import type { PaymentCreditPlan } from '../domain/payment-credit';
import { COLLECTION_TIME_ZONE, type CollectionRange, type DailyCollection } from '../domain/collections';
import type { Scope } from '../domain/scope';

const PAYMENT_CREDIT = 'payment_credit';
/** The lock of everything done to one payout (its reservation and its release). */
const PAYOUT_LOCK = 'payout';
/** The lock of one merchant's balance in one mode, taken by what may lower it. */
const BALANCE_LOCK = 'balance';

export class PrismaLedgerRepository implements LedgerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  recordPaymentCredit(input: {
    scope: Scope;
    paymentId: string;
    plan: PaymentCreditPlan;
    createdAt: Date;
  }): Promise<RecordedCredit> {
    const { scope, paymentId, plan, createdAt } = input;
    return this.prisma.$transaction(async (tx) => {
      // Concurrent credits of one payment wait for each other here, so the later one finds the movements of
      // the first instead of failing on the unique (source_id, type) key, which stays as the backstop.
      await lockSource(tx, PAYMENT_CREDIT, paymentId);
      const existing = await tx.balanceTransaction.findMany({
        where: { sourceId: paymentId, type: { in: plan.movements.map((movement) => movement.type) } },
        orderBy: { seq: 'asc' },
      });
      if (existing.length > 0) return { created: false, movements: existing.map(toBalanceTransaction) };

      const ledgerTransactionId = await writeLedgerTransaction(tx, {
        scope,
        kind: PAYMENT_CREDIT,
        sourceId: paymentId,
        postings: plan.postings,
        createdAt,
      });
      const movements: BalanceTransaction[] = [];
      // One by one, in order: `seq` then lists the fee after the payment it was taken from.
      for (const movement of plan.movements) {
        movements.push(
          await writeMovement(tx, {
            scope,
            ...movement,
            sourceId: paymentId,
            ledgerTransactionId,
            createdAt,
          }),
        );
      }
      return { created: true, movements };
    });
  }

  reservePayout(input: {
    scope: Scope;
    payoutId: string;
    createdAt: Date;
    plan: (available: bigint) => PayoutReservationPlan;
  }): Promise<RecordedPayoutMovement> {
    const { scope, payoutId, createdAt } = input;
    return this.prisma.$transaction(async (tx) => {
      await lockSource(tx, PAYOUT_LOCK, payoutId);
      const existing = await findPayoutMovement(tx, payoutId, 'payout');
      if (existing) return { created: false, movement: existing };
      // Reservations of one balance wait for each other here, so each reads what the previous ones left.
      await lockSource(tx, BALANCE_LOCK, `${scope.merchantId}:${scope.livemode}`);
      const totals = await accountTotals(tx, scope);
      const plan = input.plan(totals.get('available') ?? 0n);
      const ledgerTransactionId = await writeLedgerTransaction(tx, {
        scope,
        kind: PAYOUT_KINDS.reservation,
        sourceId: payoutId,
        postings: plan.postings,
        createdAt,
      });
      const movement = await writeMovement(tx, {
        scope,
        type: 'payout',
        amount: -plan.amount,
        sourceId: payoutId,
        ledgerTransactionId,
        createdAt,
      });
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
    return this.prisma.$transaction(async (tx) => {
      await lockSource(tx, PAYOUT_LOCK, payoutId);
      const reservation = await findPayoutMovement(tx, payoutId, 'payout');
      if (
        !reservation ||
        reservation.merchantId !== scope.merchantId ||
        reservation.livemode !== scope.livemode
      ) {
        throw new AppError('resource_missing', `No reservation of payout ${payoutId} in this scope.`, {
          param: 'payout_id',
        });
      }
      const released = await tx.ledgerTransaction.findMany({
        where: { sourceId: payoutId, kind: { in: Object.values(RELEASE_KINDS) } },
        select: { kind: true },
      });
      const kind = RELEASE_KINDS[outcome];
      if (released.some((row) => row.kind !== kind)) {
        // Its transfer has one outcome: two different ones are a bug upstream, never something to book.
        throw new Error(`payout ${payoutId} was already released with another outcome than ${outcome}`);
      }
      if (released.length > 0) {
        return { created: false, reversal: await findPayoutMovement(tx, payoutId, 'payout_reversal') };
      }
      const amount = -reservation.amount;
      const ledgerTransactionId = await writeLedgerTransaction(tx, {
        scope,
        kind,
        sourceId: payoutId,
        postings: planPayoutRelease(outcome, amount),
        createdAt,
      });
      if (outcome === 'paid') return { created: true, reversal: undefined };
      const reversal = await writeMovement(tx, {
        scope,
        type: 'payout_reversal',
        amount,
        sourceId: payoutId,
        ledgerTransactionId,
        createdAt,
      });
      return { created: true, reversal };
    });
  }

  async listPayableBalances(query: {
    livemode: boolean;
    after?: string;
    take: number;
  }): Promise<{ merchantId: string; available: bigint }[]> {
    const after = query.after ?? '';
    const rows = await this.prisma.$queryRaw<{ merchant_id: string; available: bigint }[]>`
      SELECT a.owner_id AS merchant_id, SUM(p.amount)::bigint AS available
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.livemode = ${query.livemode} AND a.kind = 'available' AND a.owner_id > ${after}
       GROUP BY a.owner_id
      HAVING SUM(p.amount) > 0
       ORDER BY a.owner_id
       LIMIT ${query.take}`;
    return rows.map((row) => ({ merchantId: row.merchant_id, available: row.available }));
  }

  recordSystemTransfer(input: {
    scope: Scope;
    kind: string;
    sourceId: string;
    postings: Posting[];
    createdAt: Date;
  }): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await lockSource(tx, input.kind, input.sourceId);
      const existing = await tx.ledgerTransaction.findUnique({
        where: { sourceId_kind: { sourceId: input.sourceId, kind: input.kind } },
        select: { id: true },
      });
      if (existing) return false;
      await writeLedgerTransaction(tx, input);
      return true;
    });
  }

  async auditBooks(livemode: boolean): Promise<BooksAudit> {
    const unbalanced = await this.prisma.$queryRaw<{ id: bigint }[]>`
      SELECT t.id FROM ledger_transactions t JOIN postings p ON p.ledger_transaction_id = t.id
        JOIN accounts a ON a.id = p.account_id
       WHERE a.livemode = ${livemode}
       GROUP BY t.id HAVING SUM(p.amount) <> 0 OR COUNT(*) < 2`;
    const outOfBalance = await this.prisma.$queryRaw<{ merchant_id: string }[]>`
      WITH postings_total AS (
        SELECT a.owner_id AS merchant_id, COALESCE(SUM(p.amount), 0) AS total
          FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
         WHERE a.livemode = ${livemode} AND a.kind = 'available'
         GROUP BY a.owner_id),
      movements_total AS (
        SELECT merchant_id, SUM(amount) AS total FROM balance_transactions
         WHERE livemode = ${livemode} GROUP BY merchant_id)
      SELECT COALESCE(p.merchant_id, m.merchant_id) AS merchant_id
        FROM postings_total p FULL JOIN movements_total m ON m.merchant_id = p.merchant_id
       WHERE COALESCE(p.total, 0) <> COALESCE(m.total, 0) OR COALESCE(p.total, 0) < 0`;
    const credited = await this.prisma.$queryRaw<{ source_id: string; payments: number; fees: number }[]>`
      SELECT source_id,
             COUNT(*) FILTER (WHERE type = 'payment')::int AS payments,
             COUNT(*) FILTER (WHERE type = 'fee')::int AS fees
        FROM balance_transactions
       WHERE livemode = ${livemode} AND type IN ('payment', 'fee')
       GROUP BY source_id`;
    const payouts = await this.prisma.$queryRaw<
      { source_id: string; reservations: number; releases: number; reversals: number }[]
    >`
      SELECT t.source_id,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.reservation})::int AS reservations,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.paid})::int AS releases,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.reversal})::int AS reversals
        FROM ledger_transactions t
       WHERE t.kind IN (${PAYOUT_KINDS.reservation}, ${PAYOUT_KINDS.paid}, ${PAYOUT_KINDS.reversal})
         AND EXISTS (SELECT 1 FROM postings p JOIN accounts a ON a.id = p.account_id
                      WHERE p.ledger_transaction_id = t.id AND a.livemode = ${livemode})
       GROUP BY t.source_id`;
    const pendingPayouts = await this.prisma.$queryRaw<{ merchant_id: string; total: bigint }[]>`
      SELECT a.owner_id AS merchant_id, SUM(p.amount)::bigint AS total
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.livemode = ${livemode} AND a.kind = 'pending_payout'
       GROUP BY a.owner_id HAVING SUM(p.amount) <> 0`;
    return {
      payouts: payouts.map((row) => ({
        payoutId: row.source_id,
        reservations: row.reservations,
        releases: row.releases,
        reversals: row.reversals,
      })),
      pendingPayouts: pendingPayouts.map((row) => ({
        merchantId: row.merchant_id,
        pendingPayout: row.total,
      })),
      unbalancedTransactions: unbalanced.map((row) => String(row.id)),
      merchantsOutOfBalance: outOfBalance.map((row) => row.merchant_id),
      creditedPayments: credited.map((row) => ({
        paymentId: row.source_id,
        paymentMovements: row.payments,
        feeMovements: row.fees,
      })),
      refundsPayable: await this.systemAccountTotal(livemode, 'refunds_payable'),
    };
  }

  async systemAccountTotal(livemode: boolean, kind: SystemAccountKind): Promise<bigint> {
    const [row] = await this.prisma.$queryRaw<{ total: bigint }[]>`
      SELECT COALESCE(SUM(p.amount), 0)::bigint AS total
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.owner_id = ${SYSTEM_OWNER} AND a.livemode = ${livemode} AND a.kind = ${kind}`;
    return row?.total ?? 0n;
  }

  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>> {
    return accountTotals(this.prisma, scope);
  }

  async findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined> {
    const row = await this.prisma.balanceTransaction.findFirst({
      where: { id: balanceTransactionId, merchantId: scope.merchantId, livemode: scope.livemode },
      select: { createdAt: true, seq: true },
    });
    return row ?? undefined;
  }

  async listBalanceTransactions(query: BalanceTransactionQuery): Promise<BalanceTransaction[]> {
    const { scope, after } = query;
    const rows = await this.prisma.balanceTransaction.findMany({
      where: {
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        ...(query.type && { type: query.type }),
        createdAt: {
          ...(query.createdFrom && { gte: query.createdFrom }),
          ...(query.createdTo && { lt: query.createdTo }),
        },
        ...(after && {
          OR: [
            { createdAt: { lt: after.createdAt } },
            { createdAt: after.createdAt, seq: { lt: after.seq } },
          ],
        }),
      },
      orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
      take: query.take,
    });
    return rows.map(toBalanceTransaction);
  }

  async dailyCollections(scope: Scope, range: CollectionRange): Promise<DailyCollection[]> {
    // A range scan of balance_transactions_list_idx (merchant_id, livemode, created_at); a fee is written
    // at the same instant as its payment, so both fall on the same day.
    const rows = await this.prisma.$queryRaw<
      { day: string; collected: bigint; fees: bigint; payment_count: bigint }[]
    >`
      SELECT to_char(created_at AT TIME ZONE ${COLLECTION_TIME_ZONE}, 'YYYY-MM-DD') AS day,
             COALESCE(SUM(amount) FILTER (WHERE type = 'payment'), 0)::bigint AS collected,
             COALESCE(-SUM(amount) FILTER (WHERE type = 'fee'), 0)::bigint AS fees,
             COUNT(*) FILTER (WHERE type = 'payment')::bigint AS payment_count
        FROM balance_transactions
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
         AND created_at >= ${range.from} AND created_at < ${range.to}
         AND type IN ('payment', 'fee')
       GROUP BY 1
       ORDER BY 1`;
    return rows.map((row) => ({
      day: row.day,
      collected: row.collected,
      fees: row.fees,
      paymentCount: row.payment_count,
    }));
  }
}

/** The sum of the postings of each of the merchant's accounts in the scope's mode. */
async function accountTotals(
  client: PrismaClient | TransactionClient,
  scope: Scope,
): Promise<Map<MerchantAccountKind, bigint>> {
  const rows = await client.$queryRaw<{ kind: MerchantAccountKind; total: bigint }[]>`
    SELECT a.kind, COALESCE(SUM(p.amount), 0)::bigint AS total
      FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
     WHERE a.owner_id = ${scope.merchantId} AND a.livemode = ${scope.livemode}
     GROUP BY a.kind`;
  return new Map(rows.map((row) => [row.kind, row.total]));
}

async function findPayoutMovement(
  tx: TransactionClient,
  payoutId: string,
  type: 'payout' | 'payout_reversal',
): Promise<BalanceTransaction | undefined> {
  const row = await tx.balanceTransaction.findUnique({
    where: { sourceId_type: { sourceId: payoutId, type } },
  });
  return row ? toBalanceTransaction(row) : undefined;
}

/** One merchant-facing movement of a ledger transaction. */
async function writeMovement(
  tx: TransactionClient,
  input: {
    scope: Scope;
    type: BalanceTransactionType;
    amount: bigint;
    sourceId: string;
    ledgerTransactionId: bigint;
    createdAt: Date;
  },
): Promise<BalanceTransaction> {
  const { scope, ...movement } = input;
  const row = await tx.balanceTransaction.create({
    data: {
      id: newId('txn'),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      currency: CURRENCY,
      ...movement,
    },
  });
  return toBalanceTransaction(row);
}

/**
 * Serializes, until the transaction ends, the writers of one operation on one source (a payment's credit, an
 * attempt's refund stage), so the later finds what the first wrote.
 */
async function lockSource(tx: TransactionClient, kind: string, sourceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${kind}:${sourceId}`}, 0))`;
}

/** A ledger transaction and its postings, the accounts created on first use; returns its id. */
async function writeLedgerTransaction(
  tx: TransactionClient,
  input: { scope: Scope; kind: string; sourceId: string; postings: Posting[]; createdAt: Date },
): Promise<bigint> {
  const { scope, kind, sourceId, postings, createdAt } = input;
  const accountIds = await ensureAccounts(
    tx,
    scope,
    postings.map((posting) => posting.account),
  );
  const ledgerTransaction = await tx.ledgerTransaction.create({ data: { kind, sourceId, createdAt } });
  // One statement for all postings: the database checks the balance of each statement's postings.
  await tx.posting.createMany({
    data: postings.map((posting) => ({
      ledgerTransactionId: ledgerTransaction.id,
      accountId: accountIdOf(accountIds, scope, posting.account),
      amount: posting.amount,
    })),
  });
  return ledgerTransaction.id;
}

function ownerIdOf(scope: Scope, account: AccountRef): string {
  return account.owner === 'merchant' ? scope.merchantId : SYSTEM_OWNER;
}

const accountKey = (ownerId: string, kind: string): string => `${ownerId}/${kind}`;

function accountIdOf(accountIds: ReadonlyMap<string, bigint>, scope: Scope, account: AccountRef): bigint {
  const id = accountIds.get(accountKey(ownerIdOf(scope, account), account.kind));
  if (id === undefined) throw new Error(`account ${account.owner}/${account.kind} was not created`);
  return id;
}

/** Accounts are created on first use; a concurrent first use by another transaction is waited for. */
async function ensureAccounts(
  tx: TransactionClient,
  scope: Scope,
  accounts: readonly AccountRef[],
): Promise<Map<string, bigint>> {
  const keys = new Set(accounts.map((account) => accountKey(ownerIdOf(scope, account), account.kind)));
  const wanted = accounts
    .filter((account) => keys.delete(accountKey(ownerIdOf(scope, account), account.kind)))
    .map((account) => ({ ownerId: ownerIdOf(scope, account), livemode: scope.livemode, kind: account.kind }));
  await tx.account.createMany({ data: wanted, skipDuplicates: true });
  const rows = await tx.account.findMany({
    where: {
      livemode: scope.livemode,
      OR: wanted.map(({ ownerId, kind }) => ({ ownerId, kind })),
    },
    select: { id: true, ownerId: true, kind: true },
  });
  return new Map(rows.map((row) => [accountKey(row.ownerId, row.kind), row.id]));
}

function toBalanceTransaction(row: BalanceTransactionRow): BalanceTransaction {
  if (!isBalanceTransactionType(row.type)) throw new Error(`unknown balance transaction type ${row.type}`);
  return {
    id: row.id,
    merchantId: row.merchantId,
    livemode: row.livemode,
    type: row.type,
    amount: row.amount,
    currency: row.currency,
    sourceId: row.sourceId,
    createdAt: row.createdAt,
  };
}
