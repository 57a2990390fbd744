import { payoutsV1 } from '@sika/contracts';
import { brokerReadiness, outboxMessaging } from '@sika/messaging';
import {
  type BasicOverrides,
  batchLoop,
  closing,
  databaseReadiness,
  grpcService,
  grpcTls,
  idempotencyKeyReaper,
  serviceBasics,
  SqlIdempotencyKeyStore,
} from '@sika/platform';
import { parsePayoutAlias } from '@sika/rules';
import { ApplyTransferOutcome } from './app/apply-transfer-outcome';
import { AuditPayouts } from './app/audit-payouts';
import { FindPayoutStatuses } from './app/find-payout-statuses';
import { ConfirmPayoutAccount } from './app/confirm-payout-account';
import { CreatePayout } from './app/create-payout';
import { GetPayout } from './app/get-payout';
import { GetPayoutAccount } from './app/get-payout-account';
import { ListPayouts } from './app/list-payouts';
import { PayoutReserver } from './app/payout-reserver';
import type { UseCaseContext } from './app/ports';
import { RunDailyPayouts } from './app/run-daily-payouts';
import { SetPayoutAccount } from './app/set-payout-account';
import { SetPayoutSchedule } from './app/set-payout-schedule';
import { SweepReservations } from './app/sweep-reservations';
import type { Config } from './config';
import type { TestPayoutAccount } from './domain/payout-account';
import { createDatabase, createRelayDatabase, type Tx } from './infra/database';
import { SqlAccountStore } from './infra/sql-account-store';
import { SqlPayeeLookupLog } from './infra/sql-payee-lookup-log';
import type { DB } from './generated/database';
import { SqlPayoutStore } from './infra/sql-payout-store';
import { GrpcLedger, GrpcPayeeDirectory } from './infra/peers';
import { PAYOUTS_CALLERS } from './transport/grpc/callers';
import { payoutsGrpcService } from './transport/grpc/service';
import { transferUpdatesConsumer, type TransferUpdatesTopology } from './transport/transfer-updates-consumer';

/** What tests replace: the clock they move by hand, a silent logger, their own exchange and queue. */
export interface PayoutsOverrides extends BasicOverrides {
  topology?: TransferUpdatesTopology;
}

function testAccountOf(config: Config): TestPayoutAccount {
  const alias = parsePayoutAlias(config.PAYOUT_TEST_ALIAS);
  if (!alias) throw new Error('PAYOUT_TEST_ALIAS is not a payout account alias');
  return {
    aliasType: alias.type,
    alias: alias.schemeValue,
    aliasMasked: alias.masked,
    holderName: config.PAYOUT_TEST_HOLDER_NAME,
  };
}

/**
 * Config → database, broker, peers → use cases → the transfer updates consumer, the daily run, the reservation
 * sweeper, the idempotency-key reaper, messaging retention, the outbox relay and gRPC. Stops in reverse: gRPC
 * and the consumer stop taking work, the loops finish their round, the relay publishes what they wrote, then
 * connections close and the probes go last.
 */
export function composePayouts(config: Config, overrides: PayoutsOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('payouts', config, overrides);
  const db = createDatabase(config.DATABASE_URL, config.DATABASE_SCHEMA, metrics);
  const relayDb = createRelayDatabase(config.DATABASE_URL, config.DATABASE_SCHEMA, metrics);
  const { broker, relay, retention, wakingRelay } = outboxMessaging(
    db,
    config,
    { clock, logger, metrics },
    {
      db: relayDb,
      exchange: overrides.topology?.exchange,
    },
  );
  const tls = grpcTls(config);
  const ledger = GrpcLedger.connect(config.LEDGER_GRPC_ADDRESS, tls);
  const payees = GrpcPayeeDirectory.connect(config.PSP_CONNECTOR_GRPC_ADDRESS, tls);

  const idempotencyKeys = new SqlIdempotencyKeyStore<DB>('payouts', 'payout_id');
  const context: UseCaseContext = {
    payouts: new SqlPayoutStore(db, idempotencyKeys, () => relay.wake()),
    accounts: new SqlAccountStore(db),
    testAccount: testAccountOf(config),
    clock,
    logger,
  };
  const reserver = new PayoutReserver({ ...context, ledger });
  const useCases = {
    createPayout: new CreatePayout({ ...context, reserver }),
    getPayout: new GetPayout(context),
    listPayouts: new ListPayouts(context),
    setPayoutAccount: new SetPayoutAccount({
      ...context,
      payees,
      lookups: new SqlPayeeLookupLog(db, {
        perMerchant: {
          limit: config.LIVE_LOOKUP_MERCHANT_LIMIT,
          windowMs: config.LIVE_LOOKUP_MERCHANT_WINDOW,
        },
        global: { limit: config.LIVE_LOOKUP_GLOBAL_LIMIT, windowMs: config.LIVE_LOOKUP_GLOBAL_WINDOW },
      }),
    }),
    confirmPayoutAccount: new ConfirmPayoutAccount(context),
    getPayoutAccount: new GetPayoutAccount(context),
    setPayoutSchedule: new SetPayoutSchedule(context),
    auditPayouts: new AuditPayouts(context),
    findPayoutStatuses: new FindPayoutStatuses(context),
  };
  const runDailyPayouts = new RunDailyPayouts({ ...context, ledger, reserver });
  const sweepReservations = new SweepReservations({ ...context, reserver });
  const dailyRun = batchLoop({
    name: 'daily-payouts',
    intervalMs: config.DAILY_PAYOUT_POLL_INTERVAL,
    batch: () => runDailyPayouts.execute(),
    clock,
    logger,
  });
  const sweeper = batchLoop({
    name: 'reservation-sweeper',
    intervalMs: config.RESERVATION_SWEEP_INTERVAL,
    batch: () => sweepReservations.execute(),
    clock,
    logger,
  });
  const reaper = idempotencyKeyReaper({ keys: idempotencyKeys, client: db, clock, logger });
  const consumer = transferUpdatesConsumer({
    broker,
    database: wakingRelay<Tx>(db),
    applyTransferOutcome: new ApplyTransferOutcome(context),
    logger,
    ...(overrides.topology && { topology: overrides.topology }),
    metrics,
  });

  const service = grpcService(
    {
      config,
      logger,
      metrics,
      readiness: [databaseReadiness(db), brokerReadiness(broker)],
      api: {
        definition: payoutsV1.PayoutsServiceService,
        implementation: payoutsGrpcService(useCases),
        callers: PAYOUTS_CALLERS,
      },
      tls,
    },
    closing('database pool', () => db.destroy()),
    closing('relay database pool', () => relayDb.destroy()),
    closing('grpc clients', () => {
      ledger.close();
      payees.close();
    }),
    broker,
    relay,
    dailyRun,
    sweeper,
    reaper,
    retention,
    consumer,
  );
  return Object.assign(service, { dailyRun, sweeper });
}

export type Payouts = ReturnType<typeof composePayouts>;
