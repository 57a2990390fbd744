import { Writable } from 'node:stream';

import { createLogger, loadConfig } from '@sika/platform';

import { composeCheckout } from '../../src/compose';
import { configSchema } from '../../src/config';
import type { EventStreams } from '../../src/transport/http/event-streams';

export interface RunningCheckout {
  baseUrl: string;
  eventStreams: EventStreams;
  /** Log lines written so far (JSON). */
  logLines: string[];
  close(): Promise<void>;
}

/** checkout-web composed as main.ts composes it, on port 0, against payments at `paymentsAddress`. */
export async function startCheckout(
  paymentsAddress: string,
  { pollIntervalMs = 100, maxStreamMs = 60_000 } = {},
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
  const config = loadConfig(configSchema, {
    HTTP_PORT: '0',
    PAYMENTS_GRPC_ADDRESS: paymentsAddress,
    GRPC_DEADLINE: '2s',
    SSE_POLL_INTERVAL: `${pollIntervalMs}ms`,
    SSE_MAX_DURATION: `${maxStreamMs}ms`,
  });
  const checkout = composeCheckout(config, { logger });
  await checkout.start();
  return {
    baseUrl: `http://127.0.0.1:${checkout.http.port}`,
    eventStreams: checkout.eventStreams,
    logLines,
    close: () => checkout.stop(),
  };
}
