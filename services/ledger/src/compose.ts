import { ledgerV1 } from '@sika/contracts';
import { AmqpBroker, brokerReadiness } from '@sika/messaging';
import {
  type BasicOverrides,
  batchLoop,
  closing,
  createCounter,
  Database,
  databaseReadiness,
  grpcService,
  grpcTls,
  serviceBasics,
} from '@sika/platform';
import { GetBalance } from './app/get-balance';
import { ListBalanceTransactions } from './app/list-balance-transactions';
import { SummarizeCollections } from './app/summarize-collections';
import { AuditBooks } from './app/audit-books';
import { GetRefundsPayable } from './app/get-refunds-payable';
import { BookRefund } from './app/book-refund';
import { CreditPayment } from './app/credit-payment';
import { ReservePayout } from './app/reserve-payout';
import { ReleasePayout } from './app/release-payout';
import { WatchBooks } from './app/watch-books';
import { ListPayableBalances } from './app/list-payable-balances';
import { PostAdjustment } from './app/post-adjustment';
import type { Config } from './config';
import type { DB } from './generated/database';
import { GrpcPaymentDecisions, GrpcPayoutDecisions } from './infra/peers';
import { SqlBooksWatchStore } from './infra/sql-books-watch-store';
import { SqlBalanceStore } from './infra/sql-balance-store';
import { SqlBookingStore } from './infra/sql-booking-store';
import { SqlBooksAuditStore } from './infra/sql-books-audit-store';
import { LEDGER_CALLERS } from './transport/grpc/callers';
import { ledgerGrpcService } from './transport/grpc/service';
import { decisionConsumers, type ConsumerRetries } from './transport/decision-consumers';

/** What tests replace: the clock they move by hand, a silent logger, sooner retries. */
export interface LedgerOverrides extends BasicOverrides {
  retries?: ConsumerRetries;
}

/**
 * Config → database, broker, peers → stores → use cases → the consumers of the decisions it applies, the
 * books watch and gRPC, with probes first to start and last to stop.
 */
export function composeLedger(config: Config, overrides: LedgerOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('ledger', config, overrides);
  // Every query of the ledger goes through Kysely: no Prisma client at runtime (Prisma stays the migration tool).
  const db = new Database<DB>({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, metrics });
  const broker = new AmqpBroker({ url: config.AMQP_URL, logger });

  const bookings = new SqlBookingStore(db);
  const balances = new SqlBalanceStore(db);
  const consumers = decisionConsumers({
    broker,
    decisions: {
      creditPayment: new CreditPayment({ bookings, clock, logger }),
      bookRefund: new BookRefund({ bookings, clock, logger }),
      releasePayout: new ReleasePayout({ bookings, clock, logger }),
    },
    logger,
    exchange: config.EVENTS_EXCHANGE,
    queuePrefix: config.DECISION_QUEUE_PREFIX,
    ...(overrides.retries && { retries: overrides.retries }),
    metrics,
  });
  const tls = grpcTls(config);
  const payments = GrpcPaymentDecisions.connect(config.PAYMENTS_GRPC_ADDRESS, tls);
  const payouts = GrpcPayoutDecisions.connect(config.PAYOUTS_GRPC_ADDRESS, tls);
  const violations = createCounter(metrics, {
    name: 'sika_audit_violations_total',
    help: 'Violations of the invariants the books watch found, by invariant (docs/operating.md).',
    labelNames: ['invariant'],
  });
  const watchBooks = new WatchBooks({
    store: new SqlBooksWatchStore(db),
    payments,
    payouts,
    logger,
    clock,
    onViolation: ({ invariant }) => violations.inc({ invariant }),
  });
  const booksWatch = batchLoop({
    name: 'books-watch',
    intervalMs: config.BOOKS_WATCH_INTERVAL,
    batch: () => watchBooks.execute(),
    clock,
    logger,
  });
  const implementation = ledgerGrpcService({
    getRefundsPayable: new GetRefundsPayable(balances),
    auditBooks: new AuditBooks(new SqlBooksAuditStore(db)),
    reservePayout: new ReservePayout({ bookings, clock, logger }),
    listPayableBalances: new ListPayableBalances(balances),
    postAdjustment: new PostAdjustment({ bookings, clock, logger }),
    getBalance: new GetBalance({ balances }),
    listBalanceTransactions: new ListBalanceTransactions({ balances }),
    summarizeCollections: new SummarizeCollections({ balances }),
  });

  const service = grpcService(
    {
      config,
      logger,
      metrics,
      readiness: [databaseReadiness(db), brokerReadiness(broker)],
      api: { definition: ledgerV1.LedgerServiceService, implementation, callers: LEDGER_CALLERS },
      tls,
    },
    closing('database pool', () => db.destroy()),
    closing('grpc clients', () => {
      for (const client of [payments, payouts]) client.close();
    }),
    broker,
    ...consumers,
    booksWatch,
  );
  return Object.assign(service, { booksWatch });
}

export type Ledger = ReturnType<typeof composeLedger>;
