import {
  type BasicOverrides,
  closing,
  databaseReadiness,
  grpcTls,
  HttpServer,
  limitsRedis,
  type Metrics,
  probesOn,
  Service,
  serviceBasics,
} from '@sika/platform';
import type { Redis } from 'ioredis';

import { CancelPayment } from './app/cancel-payment';
import { ChangeNotice } from './app/change-notice';
import { ConfirmPayoutAccount } from './app/confirm-payout-account';
import { ConfirmPassword } from './app/confirm-password';
import { CurrentSession } from './app/current-session';
import { GetMerchant } from './app/get-merchant';
import { ListPayments } from './app/list-payments';
import { PayOutNow } from './app/pay-out-now';
import { RegisterPayoutAccount } from './app/register-payout-account';
import { RequestActivation } from './app/request-activation';
import { RenewSecretKey } from './app/renew-secret-key';
import { ResendEvent } from './app/resend-event';
import { PasswordCheck } from './app/password-check';
import { ResetPassword } from './app/reset-password';
import { RevealWebhookSecret } from './app/reveal-webhook-secret';
import { RollWebhookSecret } from './app/roll-webhook-secret';
import { SendTestEvent } from './app/send-test-event';
import { SetPayoutSchedule } from './app/set-payout-schedule';
import { SetWebhookUrl } from './app/set-webhook-url';
import { ShowActivation } from './app/show-activation';
import { ShowBalance } from './app/show-balance';
import { ShowEvent } from './app/show-event';
import { ShowKeys } from './app/show-keys';
import { ShowOverview } from './app/show-overview';
import { ShowPayment } from './app/show-payment';
import { ShowPayout } from './app/show-payout';
import { ShowPayouts } from './app/show-payouts';
import { ShowWebhooks } from './app/show-webhooks';
import { SignIn } from './app/sign-in';
import { SignOut } from './app/sign-out';
import { SignUp } from './app/sign-up';
import { SimulateCustomerPayment } from './app/simulate-customer-payment';
import type { Config } from './config';
import { argon2Hasher } from './infra/argon2-hasher';
import { createDatabase } from './infra/database';
import { connectPeers, simulatorTestBank } from './infra/peers';
import { SqlAccountStore } from './infra/sql-account-store';
import { RedisSignInGuard } from './infra/redis-sign-in-guard';
import { RedisSignUpGuard } from './infra/redis-sign-up-guard';
import { createDashboardApp } from './transport/http/dashboard-app';
import { cookieNames } from './transport/http/request-context';

/** What tests replace: the logger they read, the clock they move, a Redis client of their own. */
export interface DashboardOverrides extends BasicOverrides {
  redis?: Redis;
}

/** The account store alone, for the operator's reset-link command. */
export function composeAccounts(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_SCHEMA'>, metrics?: Metrics) {
  const db = createDatabase(config.DATABASE_URL, config.DATABASE_SCHEMA, metrics);
  return { db, store: new SqlAccountStore(db) };
}

/**
 * Config → database, Redis, the services' gRPC clients → use cases → the dashboard over HTTP (with the
 * probes). Stops in reverse: the server lets requests in flight finish, then clients and pools close.
 */
export function composeDashboard(config: Config, overrides: DashboardOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('dashboard-web', config, overrides);
  const { db, store } = composeAccounts(config, metrics);
  const { redis, closing: redisClosing } = limitsRedis({
    url: config.REDIS_URL,
    commandTimeoutMs: 500,
    logger,
    given: overrides.redis,
  });
  const peers = connectPeers(
    {
      merchants: config.MERCHANTS_GRPC_ADDRESS,
      payments: config.PAYMENTS_GRPC_ADDRESS,
      payouts: config.PAYOUTS_GRPC_ADDRESS,
      ledger: config.LEDGER_GRPC_ADDRESS,
      webhooks: config.WEBHOOKS_GRPC_ADDRESS,
    },
    config.GRPC_DEADLINE,
    grpcTls(config),
  );
  const lifetime = { idleMs: config.SESSION_IDLE_TIMEOUT, absoluteMs: config.SESSION_MAX_AGE };
  const guard = new RedisSignInGuard({
    redis,
    clock,
    logger,
    limits: {
      perAccount: { limit: config.SIGN_IN_ACCOUNT_LIMIT, windowMs: config.SIGN_IN_WINDOW },
      perAddress: { limit: config.SIGN_IN_ADDRESS_LIMIT, windowMs: config.SIGN_IN_WINDOW },
      accountSlowDownMs: config.SIGN_IN_SLOW_DOWN,
    },
  });
  const accounts = { store, hasher: argon2Hasher, clock, lifetime };
  const passwordCheck = new PasswordCheck({ ...accounts, guard });
  // Longer than a change's own call may take (its deadline), so that a refusal withdraws the email first.
  const notice = new ChangeNotice({ peers, holdSeconds: Math.ceil((3 * config.GRPC_DEADLINE) / 1000) });
  const testBank =
    config.SIMULATOR_URL === undefined
      ? undefined
      : simulatorTestBank(config.SIMULATOR_URL, config.GRPC_DEADLINE);
  const useCases = {
    signUp: new SignUp({
      ...accounts,
      peers,
      guard: new RedisSignUpGuard({
        redis,
        clock,
        logger,
        limits: {
          perAddress: { limit: config.SIGN_UP_ADDRESS_LIMIT, windowMs: config.SIGN_UP_WINDOW },
          global: { limit: config.SIGN_UP_GLOBAL_LIMIT, windowMs: config.SIGN_UP_WINDOW },
        },
      }),
    }),
    signIn: new SignIn({ ...accounts, passwordCheck }),
    confirmPassword: new ConfirmPassword({ ...accounts, passwordCheck }),
    signOut: new SignOut({ store }),
    currentSession: new CurrentSession(accounts),
    resetPassword: new ResetPassword(accounts),
    getMerchant: new GetMerchant({ peers }),
    showOverview: new ShowOverview({ peers }),
    showKeys: new ShowKeys({ peers }),
    renewSecretKey: new RenewSecretKey({ peers }),
    showWebhooks: new ShowWebhooks({ peers }),
    setWebhookUrl: new SetWebhookUrl({ peers }),
    revealWebhookSecret: new RevealWebhookSecret({ peers, notice }),
    rollWebhookSecret: new RollWebhookSecret({ peers, notice }),
    sendTestEvent: new SendTestEvent({ peers }),
    showEvent: new ShowEvent({ peers }),
    resendEvent: new ResendEvent({ peers }),
    listPayments: new ListPayments({ peers }),
    showPayment: new ShowPayment({ peers }),
    cancelPayment: new CancelPayment({ peers }),
    simulateCustomerPayment: new SimulateCustomerPayment({ peers, testBank }),
    showBalance: new ShowBalance({ peers, clock }),
    showPayouts: new ShowPayouts({ peers }),
    showPayout: new ShowPayout({ peers }),
    registerPayoutAccount: new RegisterPayoutAccount({ peers, notice }),
    confirmPayoutAccount: new ConfirmPayoutAccount({ peers, notice }),
    setPayoutSchedule: new SetPayoutSchedule({ peers }),
    payOutNow: new PayOutNow({ peers }),
    showActivation: new ShowActivation({ peers }),
    requestActivation: new RequestActivation({ peers }),
  };
  const app = createDashboardApp({
    logger,
    metrics,
    useCases,
    cookies: { secure: config.COOKIE_SECURE, names: cookieNames(config.COOKIE_SECURE) },
    sessionCookieExpiry: () => new Date(clock.now().getTime() + config.SESSION_MAX_AGE),
    apiBaseUrl: config.API_BASE_URL,
    trustProxyHops: config.TRUST_PROXY_HOPS,
  });
  const http = new HttpServer(app, {
    host: config.HOST,
    port: config.HTTP_PORT,
    name: 'dashboard-web',
    logger,
  });

  const probes = probesOn({ config, logger, metrics, readiness: [databaseReadiness(db)] });
  const service = new Service(logger).add(
    probes,
    closing('database pool', () => db.destroy()),
    ...redisClosing,
    closing('grpc clients', () => peers.close()),
    http,
  );
  return Object.assign(service, { http, probes });
}

export type Dashboard = ReturnType<typeof composeDashboard>;
