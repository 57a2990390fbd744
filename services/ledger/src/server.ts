import { ledgerV1 } from '@sika/contracts';
import {
  startGrpcServer,
  type Clock,
  type Logger,
  type Metrics,
  type RunningGrpcServer,
} from '@sika/platform';
import { getBalance } from './app/get-balance';
import { listBalanceTransactions } from './app/list-balance-transactions';
import { postPaymentCredit } from './app/post-payment-credit';
import type { PrismaClient } from './generated/prisma/client';
import { PrismaLedgerRepository } from './infra/prisma-ledger-repository';
import { ledgerGrpcService } from './transport/grpc-service';

export interface LedgerServerOptions {
  prisma: PrismaClient;
  host: string;
  /** 0 lets the OS choose (tests). */
  grpcPort: number;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
}

/** Repository → use cases → gRPC: the wiring shared by main.ts and the integration tests. */
export function startLedgerServer(options: LedgerServerOptions): Promise<RunningGrpcServer> {
  const { prisma, clock, logger, metrics } = options;
  const repository = new PrismaLedgerRepository(prisma);
  const implementation = ledgerGrpcService({
    postPaymentCredit: postPaymentCredit({ repository, clock, logger }),
    getBalance: getBalance({ repository }),
    listBalanceTransactions: listBalanceTransactions({ repository }),
  });
  return startGrpcServer({
    host: options.host,
    port: options.grpcPort,
    logger,
    ...(metrics && { metrics }),
    services: [{ definition: ledgerV1.LedgerServiceService, implementation }],
  });
}
