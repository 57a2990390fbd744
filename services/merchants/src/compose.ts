import { merchantsV1 } from '@sika/contracts';
import {
  type BasicOverrides,
  closing,
  createPrismaClient,
  databaseReadiness,
  grpcTls,
  grpcWithProbes,
  Service,
  serviceBasics,
} from '@sika/platform';
import { ApproveActivation } from './app/approve-activation';
import { AuthenticateKey } from './app/authenticate-key';
import { CreateMerchant } from './app/create-merchant';
import { GetMerchant } from './app/get-merchant';
import { ListSecretKeys } from './app/list-secret-keys';
import { RenewSecretKey } from './app/renew-secret-key';
import { RequestActivation } from './app/request-activation';
import type { Config } from './config';
import { PrismaClient } from './generated/prisma/client';
import { PrismaMerchantStore } from './infra/prisma-merchant-store';
import { MERCHANTS_CALLERS } from './transport/grpc/callers';
import { merchantsGrpcService } from './transport/grpc/service';

/** What tests replace: the clock, a silent logger. */
export type MerchantsOverrides = BasicOverrides;

/** Config → database → store → use cases → gRPC, with probes first to start and last to stop. */
export function composeMerchants(config: Config, overrides: MerchantsOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('merchants', config, overrides);
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });

  const store = new PrismaMerchantStore(prisma);
  const pepper = config.API_KEY_PEPPER;
  const implementation = merchantsGrpcService({
    createMerchant: new CreateMerchant({ store, pepper, clock }),
    renewSecretKey: new RenewSecretKey({ store, pepper, clock }),
    authenticateKey: new AuthenticateKey({ store, pepper, clock }),
    getMerchant: new GetMerchant({ store }),
    listSecretKeys: new ListSecretKeys({ store, clock }),
    requestActivation: new RequestActivation({ store, clock }),
    approveActivation: new ApproveActivation({ store, clock }),
  });

  const service = new Service(logger);
  const { grpc, probes } = grpcWithProbes({
    config,
    logger,
    metrics,
    readiness: [databaseReadiness(prisma)],
    services: [
      { definition: merchantsV1.MerchantsServiceService, implementation, callers: MERCHANTS_CALLERS },
    ],
    tls: grpcTls(config),
  });
  service.add(
    probes,
    closing('database pool', () => prisma.$disconnect()),
    grpc,
  );
  return Object.assign(service, { grpc, probes });
}

export type Merchants = ReturnType<typeof composeMerchants>;
