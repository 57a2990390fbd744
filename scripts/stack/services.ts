import type { BrokerService } from '../../packages/messaging/src/accounts';
import type { SikaIdentity } from '../../packages/platform/src/grpc/tls';
import type { GrpcTlsEnv } from '../../packages/testing/src/test-pki';
import type { LocalSecrets } from './local-secrets';

/**
 * The local stack: which processes `scripts/start.sh` runs, with which environment, how the runner knows
 * each one is ready, and which URLs it prints.
 *
 * Local port table (127.0.0.1; the services' config defaults and the README use the same numbers). Every port
 * is below Linux's ephemeral range (32768–60999): there, an outgoing connection may hold a port as its source
 * when a service (re)starts and binds it, and the start fails with EADDRINUSE (it did, on 50056).
 * Every service answers /healthz, /readyz and /metrics on its operations (metrics) port, which the charts never
 * route from the Ingress (@sika/platform ProbeServer); HTTP services answer only /healthz on their public port.
 * So readiness is one HTTP GET for every service. An HTTP service's operations port is 91xx for its 80xx.
 *
 * | service            | gRPC  | HTTP                    | metrics, /readyz |
 * |--------------------|-------|-------------------------|------------------|
 * | gateway            |       | 8080 (public API)       | 9180             |
 * | checkout-web       |       | 8081 (hosted page)      | 9181             |
 * | dashboard-web      |       | 8083 (dashboard)        | 9183             |
 * | psp-connector      | 8053  | 8082 (scheme callbacks) | 9103             |
 * | pispi-simulator    |       | 8090 (API Business)     | 9190             |
 * | merchants          | 8051  |                         | 9101             |
 * | payments           | 8052  |                         | 9102             |
 * | ledger             | 8054  |                         | 9104             |
 * | webhook-dispatcher | 8055  |                         | 9105             |
 * | payouts            | 8056  |                         | 9106             |
 */
export type ServiceName =
  | 'gateway'
  | 'checkout-web'
  | 'dashboard-web'
  | 'psp-connector'
  | 'pispi-simulator'
  | 'merchants'
  | 'payments'
  | 'ledger'
  | 'webhook-dispatcher'
  | 'payouts';

export interface LocalPorts {
  grpc?: number;
  http?: number;
  /** The operations port: /healthz, /readyz, /metrics. */
  metrics: number;
}

export const PORTS: Readonly<Record<ServiceName, LocalPorts>> = {
  gateway: { http: 8080, metrics: 9180 },
  'checkout-web': { http: 8081, metrics: 9181 },
  'dashboard-web': { http: 8083, metrics: 9183 },
  'psp-connector': { grpc: 8053, http: 8082, metrics: 9103 },
  'pispi-simulator': { http: 8090, metrics: 9190 },
  merchants: { grpc: 8051, metrics: 9101 },
  payments: { grpc: 8052, metrics: 9102 },
  ledger: { grpc: 8054, metrics: 9104 },
  'webhook-dispatcher': { grpc: 8055, metrics: 9105 },
  payouts: { grpc: 8056, metrics: 9106 },
};

/** Where the shared infrastructure answers (scripts/infra/ensure.mjs made sure it does). */
export interface Infra {
  /** The service's own role in the `sika` database, as `pnpm db:migrate` created it (scripts/db). */
  databaseUrlFor(service: ServiceName): string;
  /** The service's own RabbitMQ user (scripts/stack/broker-users.ts provisions it). */
  amqpUrlFor(service: BrokerService): string;
  redisUrl: string;
  secrets: LocalSecrets;
  /** GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE of an identity's certificate from the local CA (.sika/tls). */
  grpcTlsFor(identity: SikaIdentity): GrpcTlsEnv;
}

export interface ServiceSpec {
  /** Log prefix and name in messages. */
  name: string;
  /** Run from the repository root. */
  command: string;
  args: readonly string[];
  /** Added to the runner's own environment. */
  env: Readonly<Record<string, string>>;
  /** Answers 200 once the service can take traffic. */
  readyUrl: string;
  /** Printed once everything is ready: label → URL. */
  urls: Readonly<Record<string, string>>;
}

export type ServiceTable = (infra: Infra) => readonly ServiceSpec[];

/**
 * The process settings every service runs with, here and in the charts (sika-lib's commonEnv, checked by
 * deploy/test/consistency.test.ts), as the benchmark measured them.
 *
 * NODE_OPTIONS sizes V8's heap for a service rather than for the machine: without a cap, V8 lets garbage pile
 * up to hundreds of MiB before a major collection (190 MiB resident measured after load, 107 MiB after a forced
 * GC). The young generation's semi-spaces stay at 4 MiB: on Node 26 the gateway reached 155–158 MiB resident
 * after the benchmark with 8, 131–133 with 4.
 *
 * MALLOC_ARENA_MAX: glibc's malloc gives each thread that allocates (V8's compiler and GC workers, libuv's
 * pool) an arena of its own, up to eight per core, and keeps their freed pages: psp-connector held 39 MiB in two
 * such arenas after the benchmark (168 MiB resident; 129 MiB with two arenas in all). With two, it still reached
 * 152–162 MiB on a later day (18.5 MiB in the main arena, 25 in the other); with one, 142–144 MiB (34 MiB in its
 * only arena), the throughput and CPU per paid payment unchanged within the noise.
 */
export const SERVICE_RUNTIME_ENV = {
  NODE_OPTIONS: '--max-old-space-size=96 --max-semi-space-size=4',
  MALLOC_ARENA_MAX: '1',
} as const;

/**
 * A built service from the port table: `node services/<name>/dist/main.js` with GRPC_PORT, HTTP_PORT and
 * METRICS_PORT set from the table, ready when /readyz answers on its metrics port.
 */
export function builtService(
  name: ServiceName,
  env: Readonly<Record<string, string>>,
  urls: Readonly<Record<string, string>> = {},
): ServiceSpec {
  const { grpc, http, metrics } = PORTS[name];
  const portEnv: Record<string, string> = {};
  if (grpc !== undefined) portEnv.GRPC_PORT = String(grpc);
  if (http !== undefined) portEnv.HTTP_PORT = String(http);
  portEnv.METRICS_PORT = String(metrics);
  return {
    name,
    command: process.execPath,
    args: [`services/${name}/dist/main.js`],
    env: { ...SERVICE_RUNTIME_ENV, ...portEnv, ...env },
    readyUrl: `http://127.0.0.1:${metrics}/readyz`,
    urls,
  };
}

const grpcAddress = (name: ServiceName): string => `127.0.0.1:${PORTS[name].grpc}`;
const httpUrl = (name: ServiceName): string => `http://127.0.0.1:${PORTS[name].http}`;

/** Test mode's participant: the simulator knows this client, psp-connector logs in as it. */
const SIMULATOR_CLIENT_ID = 'sika-local';
/** Sika's collection account alias at the test participant. */
const TEST_PAYEE_ALIAS = 'sika-collection-test';
/**
 * Sika's collection account alias at the live participant. Locally there is no participant bank: the
 * simulator plays the live participant too (same client), so live mode works end to end (name lookups of live
 * payout accounts, live keys) while no real money can move. Its own alias keeps the modes apart at the
 * simulator: each mode registers its callback URL (/pispi/callbacks/<mode>) for its alias, and the simulator
 * sends a callback only to the registration of the alias it concerns.
 */
const LIVE_PAYEE_ALIAS = 'sika-collection-live';

/** Every service, each as its own process, wired to the others by the port table. */
export const services: ServiceTable = (infra) => [
  builtService('merchants', {
    DATABASE_URL: infra.databaseUrlFor('merchants'),
    API_KEY_PEPPER: infra.secrets.apiKeyPepper,
    ...infra.grpcTlsFor('merchants'),
  }),
  builtService('ledger', {
    DATABASE_URL: infra.databaseUrlFor('ledger'),
    AMQP_URL: infra.amqpUrlFor('ledger'),
    PAYMENTS_GRPC_ADDRESS: grpcAddress('payments'),
    PAYOUTS_GRPC_ADDRESS: grpcAddress('payouts'),
    ...infra.grpcTlsFor('ledger'),
  }),
  builtService('webhook-dispatcher', {
    ...infra.grpcTlsFor('webhook-dispatcher'),
    DATABASE_URL: infra.databaseUrlFor('webhook-dispatcher'),
    AMQP_URL: infra.amqpUrlFor('webhook-dispatcher'),
    WEBHOOK_SECRET_KEY: infra.secrets.webhookSecretKey,
    // Local receivers (and the end-to-end tests') listen on 127.0.0.1, over http, on any port.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  }),
  builtService(
    'pispi-simulator',
    {
      DATABASE_URL: infra.databaseUrlFor('pispi-simulator'),
      SIMULATOR_CLIENT_ID,
      SIMULATOR_CLIENT_SECRET: infra.secrets.simulatorClientSecret,
    },
    { 'PI-SPI simulator (API Business)': httpUrl('pispi-simulator') },
  ),
  builtService('psp-connector', {
    ...infra.grpcTlsFor('psp-connector'),
    DATABASE_URL: infra.databaseUrlFor('psp-connector'),
    AMQP_URL: infra.amqpUrlFor('psp-connector'),
    PSP_CALLBACK_PUBLIC_URL: httpUrl('psp-connector'),
    PISPI_TEST_BASE_URL: httpUrl('pispi-simulator'),
    PISPI_TEST_CLIENT_ID: SIMULATOR_CLIENT_ID,
    PISPI_TEST_CLIENT_SECRET: infra.secrets.simulatorClientSecret,
    PISPI_TEST_PAYEE_ALIAS: TEST_PAYEE_ALIAS,
    PISPI_LIVE_BASE_URL: httpUrl('pispi-simulator'),
    PISPI_LIVE_CLIENT_ID: SIMULATOR_CLIENT_ID,
    PISPI_LIVE_CLIENT_SECRET: infra.secrets.simulatorClientSecret,
    PISPI_LIVE_PAYEE_ALIAS: LIVE_PAYEE_ALIAS,
    CALLBACK_SECRET_KEY: infra.secrets.callbackSecretKey,
  }),
  builtService('payouts', {
    ...infra.grpcTlsFor('payouts'),
    DATABASE_URL: infra.databaseUrlFor('payouts'),
    AMQP_URL: infra.amqpUrlFor('payouts'),
    LEDGER_GRPC_ADDRESS: grpcAddress('ledger'),
    PSP_CONNECTOR_GRPC_ADDRESS: grpcAddress('psp-connector'),
  }),
  builtService('payments', {
    ...infra.grpcTlsFor('payments'),
    DATABASE_URL: infra.databaseUrlFor('payments'),
    AMQP_URL: infra.amqpUrlFor('payments'),
    PSP_CONNECTOR_GRPC_ADDRESS: grpcAddress('psp-connector'),
    MERCHANTS_GRPC_ADDRESS: grpcAddress('merchants'),
    CHECKOUT_BASE_URL: httpUrl('checkout-web'),
    CHECKOUT_TOKEN_KEY: infra.secrets.checkoutTokenKey,
    PAYER_ALIAS_KEY: infra.secrets.payerAliasKey,
  }),
  builtService(
    'gateway',
    {
      ...infra.grpcTlsFor('gateway'),
      REDIS_URL: infra.redisUrl,
      MERCHANTS_GRPC_ADDRESS: grpcAddress('merchants'),
      PAYMENTS_GRPC_ADDRESS: grpcAddress('payments'),
      LEDGER_GRPC_ADDRESS: grpcAddress('ledger'),
      PAYOUTS_GRPC_ADDRESS: grpcAddress('payouts'),
      WEBHOOKS_GRPC_ADDRESS: grpcAddress('webhook-dispatcher'),
      SIMULATOR_URL: httpUrl('pispi-simulator'),
    },
    { 'Public API': `${httpUrl('gateway')}/v1`, 'OpenAPI document': `${httpUrl('gateway')}/v1/openapi.json` },
  ),
  builtService(
    'checkout-web',
    {
      ...infra.grpcTlsFor('checkout-web'),
      PAYMENTS_GRPC_ADDRESS: grpcAddress('payments'),
      CHECKOUT_TOKEN_KEY: infra.secrets.checkoutTokenKey,
      REDIS_URL: infra.redisUrl,
      // Every customer of a local run is 127.0.0.1, a developer or a test suite paying page after page: the
      // per-address limit (20 per 10 minutes by default, as deployed) would stop them, not an abuser.
      SUBMISSION_LIMIT: '100000',
    },
    { 'Hosted payment page': `${httpUrl('checkout-web')}/pay/<payment id>/<token> (the checkout_url)` },
  ),
  builtService(
    'dashboard-web',
    {
      ...infra.grpcTlsFor('dashboard-web'),
      DATABASE_URL: infra.databaseUrlFor('dashboard-web'),
      REDIS_URL: infra.redisUrl,
      MERCHANTS_GRPC_ADDRESS: grpcAddress('merchants'),
      PAYMENTS_GRPC_ADDRESS: grpcAddress('payments'),
      LEDGER_GRPC_ADDRESS: grpcAddress('ledger'),
      WEBHOOKS_GRPC_ADDRESS: grpcAddress('webhook-dispatcher'),
      PAYOUTS_GRPC_ADDRESS: grpcAddress('payouts'),
      SIMULATOR_URL: httpUrl('pispi-simulator'),
      PUBLIC_URL: httpUrl('dashboard-web'),
      API_BASE_URL: `${httpUrl('gateway')}/v1`,
      // A local run is plain http: Secure cookies would never come back.
      COOKIE_SECURE: 'false',
      // Every sign-up of a local run comes from 127.0.0.1, and the limit's counts live in Redis across runs: the
      // per-address limit (5 an hour by default, as deployed) would stop a developer's or the suite's next run.
      SIGN_UP_ADDRESS_LIMIT: '100000',
    },
    { 'Merchant dashboard': httpUrl('dashboard-web') },
  ),
];
