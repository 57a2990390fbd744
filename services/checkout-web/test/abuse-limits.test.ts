import { Writable } from 'node:stream';

import { createLogger, loadConfig, ManualClock } from '@sika/platform';
import { randomSuffix, testIdentity, unreachableRedis, waitFor } from '@sika/testing';
import type { Redis } from 'ioredis';

import { composeCheckout, type Checkout } from '../src/compose';
import { configSchema } from '../src/config';
import { startCheckout } from './support/checkout-server';
import type { RunningCheckout } from './support/checkout-server';
import { getPage, postAlias } from './support/http';
import { ALIASES, pagePathOf, PaymentsStandIn, TEST_CHECKOUT_TOKEN_KEY } from './support/payments-stand-in';

const SUBMISSION_LIMIT = 3;
const WINDOW_MS = 10 * 60_000;
// Four minutes into a ten-minute window (windows start at the epoch): 360 s until it ends, whatever the
// test's real duration, since only this clock moves.
const clock = new ManualClock(new Date('2026-03-01T12:04:00.000Z'));

/** A fresh client address for each test: the windows are shared by the whole file and the clock is fixed. */
const anAddress = (): string => `198.51.100.${randomSuffix()}`;

let standIn: PaymentsStandIn;
let paymentsAddress: string;

beforeAll(async () => {
  standIn = new PaymentsStandIn();
  paymentsAddress = await standIn.start();
});
afterAll(() => standIn.stop());

beforeEach(() => {
  standIn.unavailable = false;
  standIn.bankDelayMs = 300;
});

const attemptsOf = (paymentId: string) =>
  standIn.calls.filter((call) => call.method === 'startAttempt' && call.paymentId === paymentId);

describe('alias submissions per client address', () => {
  let checkout: RunningCheckout;

  beforeAll(async () => {
    checkout = await startCheckout(paymentsAddress, {
      submissionLimit: SUBMISSION_LIMIT,
      submissionWindowMs: WINDOW_MS,
      clock,
      // One proxy in front, as behind the ingress: the client's address is the last X-Forwarded-For entry.
      trustProxyHops: 1,
    });
  });
  afterAll(() => checkout.close());

  beforeEach(() => {
    clock.advance(WINDOW_MS);
  });

  const pageUrl = (paymentId: string) => `${checkout.baseUrl}${pagePathOf(paymentId)}`;
  const submitFrom = (address: string, paymentId: string, alias: string = ALIASES.refuses) =>
    postAlias(pageUrl(paymentId), alias, { origin: checkout.baseUrl, 'x-forwarded-for': address });

  it('answers 429 with Retry-After and a page saying so past the limit, without sending the request', async () => {
    const address = anAddress();
    for (let index = 0; index < SUBMISSION_LIMIT; index += 1) {
      expect((await submitFrom(address, standIn.add().id)).response.status).toBe(303);
    }
    const payment = standIn.add();

    const { response, body } = await submitFrom(address, payment.id, ALIASES.pays);

    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('360');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(body).toContain('<h1>Trop de demandes</h1>');
    expect(attemptsOf(payment.id)).toEqual([]);
  });

  it('counts submissions only: page views and event streams never use it up', async () => {
    const address = anAddress();
    const payment = standIn.add();
    for (let index = 0; index < 3 * SUBMISSION_LIMIT; index += 1) {
      const viewed = await fetch(pageUrl(payment.id), { headers: { 'x-forwarded-for': address } });
      expect(viewed.status).toBe(200);
      await viewed.text();
    }

    expect((await submitFrom(address, payment.id, ALIASES.pays)).response.status).toBe(303);
    expect(attemptsOf(payment.id)).toHaveLength(1);
  });

  it('keeps each address apart', async () => {
    const [limited, other] = [anAddress(), anAddress()];
    for (let index = 0; index < SUBMISSION_LIMIT; index += 1) await submitFrom(limited, standIn.add().id);

    expect((await submitFrom(limited, standIn.add().id)).response.status).toBe(429);
    expect((await submitFrom(other, standIn.add().id)).response.status).toBe(303);
  });

  it('does not count a link whose token is wrong (it is the 404 of an unknown payment)', async () => {
    const address = anAddress();
    const payment = standIn.add();
    for (let index = 0; index < 2 * SUBMISSION_LIMIT; index += 1) {
      const wrong = await postAlias(`${checkout.baseUrl}/pay/${payment.id}/${'A'.repeat(32)}`, ALIASES.pays, {
        origin: checkout.baseUrl,
        'x-forwarded-for': address,
      });
      expect(wrong.response.status).toBe(404);
    }

    expect((await submitFrom(address, payment.id)).response.status).toBe(303);
  });

  it('lets the address submit again when the window ends', async () => {
    const address = anAddress();
    for (let index = 0; index < SUBMISSION_LIMIT; index += 1) await submitFrom(address, standIn.add().id);
    expect((await submitFrom(address, standIn.add().id)).response.status).toBe(429);

    clock.advance(WINDOW_MS);

    expect((await submitFrom(address, standIn.add().id)).response.status).toBe(303);
  });
});

describe('alias submissions while Redis is unavailable', () => {
  let unreachable: Redis;
  let checkout: Checkout;
  const lines: string[] = [];

  beforeAll(async () => {
    unreachable = unreachableRedis();
    const config = loadConfig(configSchema, {
      HTTP_PORT: '0',
      METRICS_PORT: '0',
      PAYMENTS_GRPC_ADDRESS: paymentsAddress,
      CHECKOUT_TOKEN_KEY: TEST_CHECKOUT_TOKEN_KEY,
      REDIS_URL: 'redis://127.0.0.1:9',
      SUBMISSION_LIMIT: '1',
      ...(await testIdentity('checkout-web')).env,
    });
    const logger = createLogger({
      service: 'checkout-web',
      destination: new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    checkout = composeCheckout(config, { logger, redis: unreachable });
    await checkout.start();
  });
  afterAll(async () => {
    await checkout.stop();
    unreachable.disconnect();
  });

  it('go through, and the outage is logged once as a warning', async () => {
    const baseUrl = `http://127.0.0.1:${checkout.http.port}`;
    for (let index = 0; index < 3; index += 1) {
      const payment = standIn.add();
      expect((await postAlias(`${baseUrl}${pagePathOf(payment.id)}`, ALIASES.pays)).response.status).toBe(
        303,
      );
    }

    const warnings = lines.filter((line) =>
      line.includes('submission limiter unavailable: alias submissions are not limited'),
    );
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn' });
  });
});

describe('concurrent event streams', () => {
  let checkout: RunningCheckout;

  beforeAll(async () => {
    checkout = await startCheckout(paymentsAddress, {
      maxStreams: 3,
      maxStreamsPerAddress: 2,
      trustProxyHops: 1,
    });
  });
  afterAll(() => checkout.close());

  /** Opens the event stream of a payment waiting at a bank that never answers, from `address`. */
  async function openStream(address: string): Promise<{ response: Response; close: () => void }> {
    const payment = standIn.add();
    await postAlias(`${checkout.baseUrl}${pagePathOf(payment.id)}`, ALIASES.ignores);
    const controller = new AbortController();
    const response = await fetch(`${checkout.baseUrl}${pagePathOf(payment.id)}/events`, {
      headers: { 'x-forwarded-for': address },
      signal: controller.signal,
    });
    return { response, close: () => controller.abort() };
  }

  async function closeAll(streams: { close: () => void }[]): Promise<void> {
    for (const stream of streams) stream.close();
    await waitFor(() => checkout.eventStreams.size === 0, { description: 'every stream released' });
  }

  it('refuses a stream beyond the per-address cap with 503 and Retry-After, and serves other addresses', async () => {
    const [crowded, other] = [anAddress(), anAddress()];
    const open = [await openStream(crowded), await openStream(crowded)];
    try {
      const refused = await openStream(crowded);
      const elsewhere = await openStream(other);
      open.push(refused, elsewhere);

      expect(open.slice(0, 2).map(({ response }) => response.status)).toEqual([200, 200]);
      expect(refused.response.status).toBe(503);
      expect(refused.response.headers.get('retry-after')).toBe('5');
      expect(refused.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(elsewhere.response.status).toBe(200);
      expect(elsewhere.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    } finally {
      await closeAll(open);
    }
  });

  it('refuses any address once the process has its cap of streams', async () => {
    const open = [
      await openStream(anAddress()),
      await openStream(anAddress()),
      await openStream(anAddress()),
    ];
    try {
      const refused = await openStream(anAddress());
      open.push(refused);

      expect(open.slice(0, 3).map(({ response }) => response.status)).toEqual([200, 200, 200]);
      expect(refused.response.status).toBe(503);
      expect(refused.response.headers.get('retry-after')).toBe('5');
    } finally {
      await closeAll(open);
    }
  });

  it('gives the place back when a stream closes, and never counts page views', async () => {
    const address = anAddress();
    const first = [await openStream(address), await openStream(address)];
    await closeAll(first);
    const payment = standIn.add();
    for (let index = 0; index < 5; index += 1) {
      const { response } = await getPage(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
      expect(response.status).toBe(200);
    }

    const again = [await openStream(address), await openStream(address)];
    try {
      expect(again.map(({ response }) => response.status)).toEqual([200, 200]);
    } finally {
      await closeAll(again);
    }
  });
});
