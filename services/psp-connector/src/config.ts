import { CONSUMER_QUEUES, EVENTS_EXCHANGE } from '@sika/contracts';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar } from '@sika/platform';
import { z } from 'zod';

const httpUrl = () => envVar.url(['http', 'https']);

/** Live mode is optional, but all or nothing: a partial configuration is a mistake worth stopping for. */
const LIVE_REQUIRED = [
  'PISPI_LIVE_BASE_URL',
  'PISPI_LIVE_CLIENT_ID',
  'PISPI_LIVE_CLIENT_SECRET',
  'PISPI_LIVE_PAYEE_ALIAS',
] as const;

/** The environment of psp-connector (ports default to the local port table). */
export const configSchema = z
  .object({
    HOST: envVar.string().default('127.0.0.1'),
    GRPC_PORT: envVar.port().default(50053),
    /** Scheme callbacks, /healthz, /readyz and /metrics. */
    HTTP_PORT: envVar.port().default(8082),
    LOG_LEVEL: envVar.logLevel().default('info'),
    DATABASE_URL: envVar.url(['postgres', 'postgresql']),
    /** The service's own Postgres schema; tests run the real main.ts on a schema of their own. */
    DATABASE_SCHEMA: envVar.postgresSchema().default('psp'),
    AMQP_URL: envVar.url(['amqp', 'amqps']),
    /**
     * Topic exchange the outbox relay publishes to: the contract's unless two deployments share one RabbitMQ
     * vhost (and main.ts's own tests, which must not feed a running stack).
     */
    EVENTS_EXCHANGE: envVar.string().default(EVENTS_EXCHANGE),
    /** The queue of payments' refund requests: the contract's, unless (as above) a test needs its own. */
    REFUND_REQUESTS_QUEUE: envVar.string().default(CONSUMER_QUEUES.pspRefundRequests.queue),
    /** The queue of payouts' transfer requests: the contract's, unless (as above) a test needs its own. */
    PAYOUT_TRANSFERS_QUEUE: envVar.string().default(CONSUMER_QUEUES.pspPayoutTransferRequests.queue),
    /**
     * Public base URL of this service's HTTP port, as the participants reach it. Each mode registers
     * `<PSP_CALLBACK_PUBLIC_URL>/pispi/callbacks/<test|live>` as its callback URL.
     */
    PSP_CALLBACK_PUBLIC_URL: httpUrl(),
    /** Test mode: the simulator's API Business (e.g. http://127.0.0.1:8090). */
    PISPI_TEST_BASE_URL: httpUrl(),
    /** OAuth2 token endpoint; `<origin of the base URL>/oauth/token` when absent. */
    PISPI_TEST_TOKEN_URL: httpUrl().optional(),
    PISPI_TEST_CLIENT_ID: envVar.string(),
    PISPI_TEST_CLIENT_SECRET: envVar.string(),
    /** Sika's account alias at the test participant: where test payments are collected, and payouts paid from. */
    PISPI_TEST_PAYEE_ALIAS: envVar.string(),
    /** Live mode: the participant bank's API Business. Without it, live requests get service_unavailable. */
    PISPI_LIVE_BASE_URL: httpUrl().optional(),
    PISPI_LIVE_TOKEN_URL: httpUrl().optional(),
    PISPI_LIVE_CLIENT_ID: envVar.string().optional(),
    PISPI_LIVE_CLIENT_SECRET: envVar.string().optional(),
    PISPI_LIVE_PAYEE_ALIAS: envVar.string().optional(),
    /** Bound of one HTTP exchange with a participant. */
    PISPI_TIMEOUT: envVar.durationMs().prefault('10s'),
    /** dateLimitePaiement of a request-to-pay, from now: the document gives categorie 521 two minutes. */
    PISPI_PAYMENT_DEADLINE: envVar.durationMs().prefault('2m'),
    /**
     * How often the status of undecided invoices (payments on delivery) is read: the payer's acceptance
     * shows nowhere else. The merchant learns it at most this late.
     */
    PISPI_INVOICE_POLL_INTERVAL: envVar.durationMs().prefault('2s'),
    /** How often fund returns due to be sent (or asked about again) are looked for, besides wake-ups. */
    PISPI_FUND_RETURN_POLL_INTERVAL: envVar.durationMs().prefault('5s'),
    /** How often payout transfers due to be sent (or read back) are looked for, besides wake-ups. */
    PISPI_PAYOUT_POLL_INTERVAL: envVar.durationMs().prefault('5s'),
    /**
     * How long a sent payout transfer waits for its callback (PAIEMENT_ENVOYE / PAIEMENT_REJETE) before it is
     * read back with GET /paiements/{txId}; twice as long before each next read, so a lost callback cannot
     * leave a payout pending forever.
     */
    PISPI_PAYOUT_VERDICT_WAIT: envVar.durationMs().prefault('1m'),
    ...RETENTION_CONFIG,
  })
  .superRefine((config, context) => {
    const given = LIVE_REQUIRED.filter((name) => config[name] !== undefined);
    if (given.length === 0 && config.PISPI_LIVE_TOKEN_URL === undefined) return;
    for (const name of LIVE_REQUIRED) {
      if (config[name] === undefined) {
        context.addIssue({ code: 'custom', path: [name], message: 'required once live mode is configured' });
      }
    }
  });

export type Config = z.output<typeof configSchema>;
