import { CONSUMER_QUEUES, EVENTS_EXCHANGE } from '@sika/contracts';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar, grpcTlsEnv, secretKeyVar } from '@sika/platform';
import { z } from 'zod';

import { MODES, type Mode } from './domain/mode';

const httpUrl = () => envVar.url(['http', 'https']);
/** A file mounted from a Kubernetes Secret; read (and its content checked) at start. */
const filePath = () => envVar.string().regex(/^\//, { message: 'expected an absolute path' });

/** Live mode is optional, but all or nothing: a partial configuration is a mistake worth stopping for. */
const LIVE_REQUIRED = [
  'PISPI_LIVE_BASE_URL',
  'PISPI_LIVE_CLIENT_ID',
  'PISPI_LIVE_CLIENT_SECRET',
  'PISPI_LIVE_PAYEE_ALIAS',
] as const;

/** A mode's mutual TLS with its participant: the three files, all or none. */
export const tlsVariables = (mode: Mode) =>
  [
    `PISPI_${upper(mode)}_TLS_CERT_FILE`,
    `PISPI_${upper(mode)}_TLS_KEY_FILE`,
    `PISPI_${upper(mode)}_TLS_CA_FILE`,
  ] as const;

function upper(mode: Mode): 'TEST' | 'LIVE' {
  return mode === 'test' ? 'TEST' : 'LIVE';
}

/**
 * The machine itself: a participant there can only be the local stack's simulator playing the live bank, never
 * a real one, so live mode may reach it without TLS.
 */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Every variable of psp-connector, unchecked as a whole (commands pick theirs from it). */
export const configVariables = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  GRPC_PORT: envVar.port().default(8053),
  /** Participant callbacks (and /healthz). */
  HTTP_PORT: envVar.port().default(8082),
  /** The operations port: /healthz, /readyz and /metrics, never routed from the Ingress. */
  METRICS_PORT: envVar.port().default(9103),
  LOG_LEVEL: envVar.logLevel().default('info'),
  /** Mutual TLS of the gRPC API: its certificate (spiffe://sika/psp-connector), key and Sika's internal CA. */
  ...grpcTlsEnv,
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
  /**
   * Mutual TLS with the test participant (a bank's sandbox usually requires it; the simulator does not):
   * Sika's client certificate (PEM, its chain after it), its private key, and the participant's CA, the only
   * one trusted for its server certificate. All three or none.
   */
  PISPI_TEST_TLS_CERT_FILE: filePath().optional(),
  PISPI_TEST_TLS_KEY_FILE: filePath().optional(),
  PISPI_TEST_TLS_CA_FILE: filePath().optional(),
  /** Live mode: the participant bank's API Business. Without it, live requests get service_unavailable. */
  PISPI_LIVE_BASE_URL: httpUrl().optional(),
  PISPI_LIVE_TOKEN_URL: httpUrl().optional(),
  PISPI_LIVE_CLIENT_ID: envVar.string().optional(),
  PISPI_LIVE_CLIENT_SECRET: envVar.string().optional(),
  PISPI_LIVE_PAYEE_ALIAS: envVar.string().optional(),
  /** As in test mode, but required once live mode is configured (unless its participant is on loopback). */
  PISPI_LIVE_TLS_CERT_FILE: filePath().optional(),
  PISPI_LIVE_TLS_KEY_FILE: filePath().optional(),
  PISPI_LIVE_TLS_CA_FILE: filePath().optional(),
  /**
   * Encrypts the scheme's callback secrets at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64
   * (`openssl rand -base64 32`).
   */
  CALLBACK_SECRET_KEY: secretKeyVar.current(),
  /**
   * Keys that sealed callback secrets before CALLBACK_SECRET_KEY, comma-separated: still read, never
   * written. Kept until `node dist/reseal-callback-secrets.js` has resealed every secret with the current key.
   */
  CALLBACK_SECRET_PREVIOUS_KEYS: secretKeyVar.previous(),
  /**
   * How long a mode's callback registration (its URL and secret) is reused to check callbacks' signatures: a
   * new registration's secret is accepted, and the replaced one refused, within this delay.
   */
  CALLBACK_REGISTRATION_CACHE_TTL: envVar.durationMs().pipe(z.number().min(0).max(1_000)).prefault('1s'),
  /** Bound of one HTTP exchange with a participant, the wait for a free connection included. */
  PISPI_TIMEOUT: envVar.durationMs().prefault('10s'),
  /**
   * Connections to one mode's participant at most; an exchange beyond them waits for a free one. Without a
   * bound, a burst opens as many connections as it has exchanges in flight, and each idle one is kept (and
   * its memory held) until the participant's keep-alive ends. 64 exchanges of 250 ms each carry 256 per second.
   */
  PISPI_MAX_CONNECTIONS: envVar.positiveInt().default(64),
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
  /**
   * How long a scheme callback's event is kept (it deduplicates redeliveries, and a fund return needs the
   * PAIEMENT_RECU it returns): far beyond a scheme's redeliveries and payments' retries and dead-letter replays.
   */
  SCHEME_CALLBACK_RETENTION: envVar.durationMs().prefault('30d'),
  ...RETENTION_CONFIG,
});

/** The environment of psp-connector (ports default to the local port table). */
export const configSchema = configVariables.superRefine((config, context) => {
  const missing = (name: string, message: string) =>
    context.addIssue({ code: 'custom', path: [name], message });
  for (const mode of MODES) {
    const tls = tlsVariables(mode);
    if (tls.some((name) => config[name] !== undefined)) {
      for (const name of tls)
        if (config[name] === undefined) missing(name, `required with the other ${mode} TLS files`);
    }
  }
  const given = LIVE_REQUIRED.filter((name) => config[name] !== undefined);
  const liveTls = tlsVariables('live').filter((name) => config[name] !== undefined);
  if (given.length === 0 && config.PISPI_LIVE_TOKEN_URL === undefined && liveTls.length === 0) return;
  for (const name of LIVE_REQUIRED) {
    if (config[name] === undefined) missing(name, 'required once live mode is configured');
  }
  const urls = ['PISPI_LIVE_BASE_URL', 'PISPI_LIVE_TOKEN_URL'] as const;
  if (urls.every((name) => config[name] === undefined || isLoopback(config[name]))) return;
  // A real participant: money moves, so only over mutual TLS.
  for (const name of urls) {
    if (config[name]?.startsWith('http:')) missing(name, 'expected an https:// URL in live mode');
  }
  for (const name of tlsVariables('live')) {
    if (config[name] === undefined)
      missing(name, 'required in live mode: the participant requires mutual TLS');
  }
});

export type Config = z.output<typeof configSchema>;
