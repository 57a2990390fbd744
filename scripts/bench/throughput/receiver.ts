import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { verifySignature } from '../../../test-e2e/support/webhook-receiver';

interface WebhookEvent {
  id: string;
  type: string;
  data: { object: { id: string } };
}

/**
 * The merchants' webhook endpoint for the benchmark. test-e2e's receiver keeps every delivery in an array
 * for the tests to poll; at hundreds of deliveries a second that scan would cost the benchmark more CPU than
 * the receiving. This one verifies each `payment.succeeded` on arrival, keeps only its arrival time per
 * payment, and wakes whoever waits for that payment.
 */
export interface PaidWebhookReceiver {
  url: string;
  /** A merchant's webhook secret: deliveries signed by any trusted secret verify. */
  trust(secret: string): void;
  /** performance.now() when the payment's signed `payment.succeeded` arrived, or undefined when released first. */
  waitFor(paymentId: string): Promise<number | undefined>;
  /** Resolves every pending waitFor with undefined: the benchmark stops waiting for those payments. */
  releaseWaiters(): void;
  counts: {
    /** Verified `payment.succeeded`, once per payment. */
    paid: number;
    /** A second verified `payment.succeeded` for the same payment (a redelivery). */
    duplicates: number;
    badSignatures: number;
    otherEvents: number;
    malformed: number;
  };
  close(): Promise<void>;
}

export async function startPaidWebhookReceiver(): Promise<PaidWebhookReceiver> {
  const secrets: string[] = [];
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, (arrival: number | undefined) => void>();
  const counts = { paid: 0, duplicates: 0, badSignatures: 0, otherEvents: 0, malformed: 0 };

  const accept = (rawBody: string, signatureHeader: string | undefined, arrival: number): void => {
    let event: WebhookEvent;
    try {
      event = JSON.parse(rawBody) as WebhookEvent;
    } catch {
      counts.malformed += 1;
      return;
    }
    if (event.type !== 'payment.succeeded') {
      counts.otherEvents += 1;
      return;
    }
    if (!secrets.some((secret) => verifySignature(signatureHeader, rawBody, secret))) {
      counts.badSignatures += 1;
      return;
    }
    const paymentId = event.data.object.id;
    if (arrivals.has(paymentId)) {
      counts.duplicates += 1;
      return;
    }
    counts.paid += 1;
    arrivals.set(paymentId, arrival);
    waiters.get(paymentId)?.(arrival);
    waiters.delete(paymentId);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrival = performance.now();
      response.writeHead(204).end();
      accept(
        Buffer.concat(chunks).toString('utf8'),
        request.headers['service-signature'] as string | undefined,
        arrival,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    trust: (secret) => void secrets.push(secret),
    waitFor: (paymentId) => {
      const arrival = arrivals.get(paymentId);
      if (arrival !== undefined) return Promise.resolve(arrival);
      return new Promise((resolve) => waiters.set(paymentId, resolve));
    },
    releaseWaiters: () => {
      for (const resolve of waiters.values()) resolve(undefined);
      waiters.clear();
    },
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
