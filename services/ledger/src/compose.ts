import { ledgerV1 } from '@sika/contracts';
import {
  type BasicOverrides,
  closing,
  databaseReadiness,
  grpcTls,
  grpcWithProbes,
  Service,
  serviceBasics,
  SqlDatabase,
} from '@sika/platform';
import { GetBalance } from './app/get-balance';
import { ListBalanceTransactions } from './app/list-balance-transactions';
import { SummarizeCollections } from './app/summarize-collections';
import { AuditBooks } from './app/audit-books';
import { GetRefundsPayable } from './app/get-refunds-payable';
import { PostPaymentCredit } from './app/post-payment-credit';
import { PostRefund } from './app/post-refund';
import { ReservePayout } from './app/reserve-payout';
import { ReleasePayout } from './app/release-payout';
import { ListPayableBalances } from './app/list-payable-balances';
import { PostAdjustment } from './app/post-adjustment';
import type { Config } from './config';
import { SqlLedgerRepository } from './infra/sql-ledger-repository';
import { LEDGER_CALLERS } from './transport/grpc/callers';
import { ledgerGrpcService } from './transport/grpc/service';

/** What tests replace: the clock they move by hand, a silent logger. */
export type LedgerOverrides = BasicOverrides;

/** Config → database → repository → use cases → gRPC, with probes first to start and last to stop. */
export function composeLedger(config: Config, overrides: LedgerOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('ledger', config, overrides);
  // Every query of the ledger is raw SQL: no Prisma client at runtime (Prisma stays the migration tool).
  const db = new SqlDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA });

  const repository = new SqlLedgerRepository(db);
  const implementation = ledgerGrpcService({
    postPaymentCredit: new PostPaymentCredit({ repository, clock, logger }),
    postRefund: new PostRefund({ repository, clock, logger }),
    getRefundsPayable: new GetRefundsPayable(repository),
    auditBooks: new AuditBooks(repository),
    reservePayout: new ReservePayout({ repository, clock, logger }),
    releasePayout: new ReleasePayout({ repository, clock, logger }),
    listPayableBalances: new ListPayableBalances(repository),
    postAdjustment: new PostAdjustment({ repository, clock, logger }),
    getBalance: new GetBalance({ repository }),
    listBalanceTransactions: new ListBalanceTransactions({ repository }),
    summarizeCollections: new SummarizeCollections({ repository }),
  });

  const service = new Service(logger);
  const { grpc, probes } = grpcWithProbes({
    config,
    logger,
    metrics,
    readiness: [databaseReadiness(db)],
    services: [{ definition: ledgerV1.LedgerServiceService, implementation, callers: LEDGER_CALLERS }],
    tls: grpcTls(config),
  });
  service.add(
    probes,
    closing('database pool', () => db.$disconnect()),
    grpc,
  );
  return Object.assign(service, { grpc, probes });
}

export type Ledger = ReturnType<typeof composeLedger>;
