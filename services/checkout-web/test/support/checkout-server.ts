import { Writable } from 'node:stream';

import { createLogger, createMetrics, startHttpServer, systemClock } from '@sika/platform';
import type { RunningHttpServer } from '@sika/platform';

import { FollowCheckout } from '../../src/app/follow-checkout';
import { ShowCheckout } from '../../src/app/show-checkout';
import { SubmitAlias } from '../../src/app/submit-alias';
import { createPaymentsClient } from '../../src/infra/payments-client';
import { createCheckoutApp } from '../../src/transport/http/checkout-app';
import { EventStreams } from '../../src/transport/http/event-streams';

export interface RunningCheckout {
  baseUrl: string;
  eventStreams: EventStreams;
  /** Log lines written so far (JSON). */
  logLines: string[];
  close(): Promise<void>;
}

/** checkout-web wired as main.ts wires it, on port 0, against payments at `paymentsAddress`. */
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
  const payments = createPaymentsClient(paymentsAddress, 2_000);
  const showCheckout = new ShowCheckout({ payments, clock: systemClock });
  const eventStreams = new EventStreams(maxStreamMs);
  const app = createCheckoutApp({
    logger,
    metrics: createMetrics({ service: 'checkout-web' }),
    eventStreams,
    useCases: {
      showCheckout,
      submitAlias: new SubmitAlias({ payments, showCheckout }),
      followCheckout: new FollowCheckout({ payments, clock: systemClock, logger, pollIntervalMs }),
    },
  });
  const server: RunningHttpServer = await startHttpServer(app, { host: '127.0.0.1', port: 0 });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    eventStreams,
    logLines,
    close: async () => {
      const closed = server.close(2_000);
      eventStreams.closeAll();
      await closed;
      payments.close();
    },
  };
}
