import { Writable } from 'node:stream';

import { createLogger, loadConfig, type Clock } from '@sika/platform';
import { createTestRedis, testIdentity } from '@sika/testing';

import { composeCheckout } from '../../src/compose';
import { configSchema } from '../../src/config';
import type { EventStreams } from '../../src/transport/http/event-streams';
import { TEST_CHECKOUT_TOKEN_KEY } from './payments-stand-in';

export interface RunningCheckout {
  baseUrl: string;
  /** The operations port: /healthz, /readyz, /metrics. */
  opsUrl: string;
  eventStreams: EventStreams;
  /** Log lines written so far (JSON). */
  logLines: string[];
  close(): Promise<void>;
}

export interface CheckoutOptions {
  pollIntervalMs?: number;
  maxStreamMs?: number;
  /** SSE_MAX_STREAMS and SSE_MAX_STREAMS_PER_ADDRESS (generous unless a test is about them). */
  maxStreams?: number;
  maxStreamsPerAddress?: number;
  /** SUBMISSION_LIMIT per SUBMISSION_WINDOW (generous unless a test is about it). */
  submissionLimit?: number;
  submissionWindowMs?: number;
  /** TRUST_PROXY_HOPS: set, tests name their client's address in X-Forwarded-For. */
  trustProxyHops?: number;
  /** The clock of the submission windows, to move across them without waiting. */
  clock?: Clock;
}

/**
 * checkout-web composed as main.ts composes it, on port 0, against payments at `paymentsAddress` and a Redis
 * of its own (an isolated key prefix on the test server).
 */
export async function startCheckout(
  paymentsAddress: string,
  {
    pollIntervalMs = 100,
    maxStreamMs = 60_000,
    maxStreams = 1_000,
    maxStreamsPerAddress = 1_000,
    submissionLimit = 100_000,
    submissionWindowMs = 60_000,
    trustProxyHops = 0,
    clock,
  }: CheckoutOptions = {},
): Promise<RunningCheckout> {
  const logLines: string[] = [];
  const logger = createLogger({
    service: 'checkout-web',
    destination: new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logLines.push(chunk.toString());
        done();
      },
    }),
  });
  const testRedis = await createTestRedis({ prefix: 'checkout' });
  const config = loadConfig(configSchema, {
    HTTP_PORT: '0',
    METRICS_PORT: '0',
    PAYMENTS_GRPC_ADDRESS: paymentsAddress,
    CHECKOUT_TOKEN_KEY: TEST_CHECKOUT_TOKEN_KEY,
    REDIS_URL: 'redis://127.0.0.1:6379',
    GRPC_DEADLINE: '2s',
    SSE_POLL_INTERVAL: `${pollIntervalMs}ms`,
    SSE_MAX_DURATION: `${maxStreamMs}ms`,
    SSE_MAX_STREAMS: String(maxStreams),
    SSE_MAX_STREAMS_PER_ADDRESS: String(maxStreamsPerAddress),
    SUBMISSION_LIMIT: String(submissionLimit),
    SUBMISSION_WINDOW: `${submissionWindowMs}ms`,
    TRUST_PROXY_HOPS: String(trustProxyHops),
    ...(await testIdentity('checkout-web')).env,
  });
  const checkout = composeCheckout(config, {
    logger,
    redis: testRedis.redis,
    ...(clock !== undefined && { clock }),
  });
  await checkout.start();
  return {
    baseUrl: `http://127.0.0.1:${checkout.http.port}`,
    opsUrl: `http://127.0.0.1:${checkout.probes.port}`,
    eventStreams: checkout.eventStreams,
    logLines,
    close: async () => {
      await checkout.stop();
      await testRedis.cleanup();
    },
  };
}
