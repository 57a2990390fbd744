import { merchantsV1 } from '@sika/contracts';
import {
  type BasicOverrides,
  closing,
  Database,
  databaseReadiness,
  grpcService,
  grpcTls,
  PollingLoop,
  serviceBasics,
} from '@sika/platform';
import { ApproveActivation } from './app/approve-activation';
import { AuthenticateKey } from './app/authenticate-key';
import { CancelEmail } from './app/cancel-email';
import { emailRelayRound } from './app/email-relay';
import { ListEmails } from './app/list-emails';
import { RecordEmail } from './app/record-email';
import { CreateMerchant } from './app/create-merchant';
import { GetMerchant } from './app/get-merchant';
import { ListSecretKeys } from './app/list-secret-keys';
import { RenewSecretKey } from './app/renew-secret-key';
import { RequestActivation } from './app/request-activation';
import type { Config } from './config';
import type { DB } from './generated/database';
import { SqlEmailOutbox } from './infra/sql-email-outbox';
import { SqlMerchantStore } from './infra/sql-merchant-store';
import { smtpMailer } from './infra/smtp-mailer';
import { MERCHANTS_CALLERS } from './transport/grpc/callers';
import { merchantsGrpcService } from './transport/grpc/service';

/** What tests replace: the clock, a silent logger. */
export type MerchantsOverrides = BasicOverrides;

/**
 * Config → database → store → use cases → gRPC, with probes first to start and last to stop; the relay of
 * emails beside them.
 */
export function composeMerchants(config: Config, overrides: MerchantsOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('merchants', config, overrides);
  const db = new Database<DB>({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, metrics });

  const store = new SqlMerchantStore(db);
  const pepper = config.API_KEY_PEPPER;
  const outbox = new SqlEmailOutbox(db);
  const mailer = config.SMTP_URL === undefined ? undefined : smtpMailer(config.SMTP_URL, config.SMTP_FROM);
  const emailRelay = new PollingLoop({
    name: 'email-relay',
    round: emailRelayRound({ outbox, mailer, clock, logger }),
    intervalMs: config.EMAIL_RELAY_INTERVAL,
    clock,
    logger,
  });
  const implementation = merchantsGrpcService({
    createMerchant: new CreateMerchant({ store, pepper, clock }),
    renewSecretKey: new RenewSecretKey({
      store,
      pepper,
      clock,
      wakeRelay: (dueAt) => emailRelay.wakeAt(dueAt),
    }),
    authenticateKey: new AuthenticateKey({ store, pepper, clock }),
    getMerchant: new GetMerchant({ store }),
    listSecretKeys: new ListSecretKeys({ store, clock }),
    requestActivation: new RequestActivation({ store, clock }),
    approveActivation: new ApproveActivation({ store, clock }),
    recordEmail: new RecordEmail({ outbox, clock, wakeRelay: (dueAt) => emailRelay.wakeAt(dueAt) }),
    cancelEmail: new CancelEmail({ outbox }),
    listEmails: new ListEmails({ outbox }),
  });

  return grpcService(
    {
      config,
      logger,
      metrics,
      readiness: [databaseReadiness(db)],
      api: { definition: merchantsV1.MerchantsServiceService, implementation, callers: MERCHANTS_CALLERS },
      tls: grpcTls(config),
    },
    closing('database pool', () => db.destroy()),
    ...(mailer === undefined ? [] : [closing('smtp transport', () => mailer.close())]),
    emailRelay,
  );
}

export type Merchants = ReturnType<typeof composeMerchants>;
