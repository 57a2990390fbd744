import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  rawBody: string;
  signatureHeader: string | undefined;
  event: { id: string; type: string; data: { object: { id: string } } } & Record<string, unknown>;
}

/**
 * The merchant's webhook endpoint: records every delivery and answers 2xx, or fails the first
 * `failuresBeforeSuccess` deliveries with a 500.
 */
export async function startWebhookReceiver(failuresBeforeSuccess = 0) {
  const received: ReceivedWebhook[] = [];
  let failuresLeft = failuresBeforeSuccess;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({
        rawBody,
        signatureHeader: request.headers['service-signature'] as string | undefined,
        event: JSON.parse(rawBody) as ReceivedWebhook['event'],
      });
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        response.writeHead(500).end();
      } else {
        response.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The merchant's side of spec §5.5, written from the spec alone (not from Sika's code):
 * `Service-Signature: t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, timestamp within 5 minutes.
 * While a rolled secret overlaps the header carries one `v1` entry per secret (Stripe's convention): it
 * verifies when any of them matches.
 */
export function verifySignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  now = Date.now(),
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string]);
  const timestamp = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value);
  if (!timestamp || signatures.length === 0 || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
