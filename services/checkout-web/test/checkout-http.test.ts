import { paymentsV1 } from '@sika/contracts';
import { checkoutTokenOf } from '@sika/rules';

import { startCheckout } from './support/checkout-server';
import type { RunningCheckout } from './support/checkout-server';
import { htmlProblems } from './support/html-validity';
import { getPage, postAlias, readEventStream } from './support/http';
import { ALIASES, pagePathOf, PaymentsStandIn, TEST_CHECKOUT_TOKEN_KEY } from './support/payments-stand-in';

const { PaymentStatus } = paymentsV1;

let standIn: PaymentsStandIn;
let checkout: RunningCheckout;

beforeAll(async () => {
  standIn = new PaymentsStandIn();
  checkout = await startCheckout(await standIn.start());
});

afterAll(async () => {
  await checkout.close();
  await standIn.stop();
});

beforeEach(() => {
  standIn.unavailable = false;
  standIn.bankDelayMs = 300;
});

const pageUrl = (paymentId: string) => `${checkout.baseUrl}${pagePathOf(paymentId)}`;

async function expectValidHtml(body: string): Promise<void> {
  expect(await htmlProblems(body)).toEqual([]);
}

describe('GET /pay/:paymentId/:token', () => {
  it('shows the payment and the alias form, as valid HTML under a strict policy', async () => {
    const payment = standIn.add({ amount: 10_000n, reference: 'CMD-1042', description: 'Deux pagnes wax' });

    const { response, body } = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
        "form-action 'self' https://shop.invalid; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(body).toContain('10\u202f000\u00a0FCFA');
    expect(body).toContain('CMD-1042');
    expect(body).toContain('Deux pagnes wax');
    expect(body).toContain(
      `<form class="alias-form" method="post" action="${pagePathOf(payment.id)}/attempts">`,
    );
    expect(body).toContain('href="https://shop.invalid/cancel"');
    await expectValidHtml(body);
  });

  it('escapes hostile merchant text', async () => {
    const payment = standIn.add({
      reference: '<script>alert(1)</script>',
      description: '"><img src=x onerror=alert(2)>',
    });

    const { body } = await getPage(pageUrl(payment.id));

    expect(body).not.toContain('<script>alert');
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    await expectValidHtml(body);
  });

  it('goes straight to the waiting screen when the request already left (customer_alias at creation)', async () => {
    const payment = standIn.add({
      status: PaymentStatus.PAYMENT_STATUS_REQUEST_SENT,
      attempts: [
        {
          id: 'att_1',
          txId: 'tx1',
          status: paymentsV1.AttemptStatus.ATTEMPT_STATUS_SENT,
          payerAliasMasked: '+225 00******01',
          duplicate: false,
          createdAt: new Date(),
        },
      ],
    });

    const { response, body } = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(200);
    expect(body).toContain('Validez le paiement dans votre application');
    expect(body).toContain(`data-events="${pagePathOf(payment.id)}/events"`);
    expect(body).toContain('<script src="/assets/checkout.js" defer></script>');
    expect(body).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
    await expectValidHtml(body);
  });

  it.each([
    ['succeeded', PaymentStatus.PAYMENT_STATUS_SUCCEEDED],
    ['accepted_deferred', PaymentStatus.PAYMENT_STATUS_ACCEPTED_DEFERRED],
  ])('sends a %s customer to return_url', async (_name, status) => {
    const payment = standIn.add({ status });

    const { response } = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://shop.invalid/return');
  });

  it.each([
    ['declined', PaymentStatus.PAYMENT_STATUS_DECLINED, 'Paiement refusé'],
    ['expired', PaymentStatus.PAYMENT_STATUS_EXPIRED, 'Délai de paiement dépassé'],
    ['canceled', PaymentStatus.PAYMENT_STATUS_CANCELED, 'Paiement annulé'],
    ['failed', PaymentStatus.PAYMENT_STATUS_FAILED, 'Le paiement n’a pas abouti'],
  ])('renders the final status %s with the way back to the shop', async (_name, status, heading) => {
    const payment = standIn.add({ status });

    const { response, body } = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(200);
    expect(body).toContain(`<h1>${heading}</h1>`);
    expect(body).toContain('href="https://shop.invalid/cancel"');
    expect(body).not.toContain('<form');
    await expectValidHtml(body);
  });

  it('answers an HTML 404 for an unknown payment, and for a malformed id without asking payments', async () => {
    const unknown = await getPage(pageUrl('pay_000000000000000000000000'));
    const callsBefore = standIn.calls.length;
    const malformed = await getPage(pageUrl('pay_<script>'));

    expect(unknown.response.status).toBe(404);
    expect(unknown.body).toContain('Page introuvable');
    await expectValidHtml(unknown.body);
    expect(malformed.response.status).toBe(404);
    expect(standIn.calls.length).toBe(callsBefore);
  });

  it('answers an HTML 404 for any other path', async () => {
    const { response, body } = await getPage(`${checkout.baseUrl}/nothing/here`);

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await expectValidHtml(body);
  });

  it('answers 503 with a page when payments is unreachable', async () => {
    const payment = standIn.add();
    standIn.unavailable = true;

    const { response, body } = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(503);
    expect(body).toContain('Service indisponible');
    await expectValidHtml(body);
  });
});

describe("the link's token", () => {
  const withToken = (paymentId: string, token: string) => `${checkout.baseUrl}/pay/${paymentId}/${token}`;

  it('opens the page with the right token', async () => {
    const payment = standIn.add();

    const { response, body } = await getPage(
      withToken(payment.id, checkoutTokenOf(TEST_CHECKOUT_TOKEN_KEY, payment.id)),
    );

    expect(response.status).toBe(200);
    expect(body).toContain('<form class="alias-form"');
  });

  it.each([
    ['the bare payment id', (id: string) => `${checkout.baseUrl}/pay/${id}`],
    ['a wrong token', (id: string) => withToken(id, 'A'.repeat(32))],
    [
      'the token of another payment',
      (id: string) => withToken(id, checkoutTokenOf(TEST_CHECKOUT_TOKEN_KEY, 'pay_000000000000000000000000')),
    ],
    [
      'a token made with another key',
      (id: string) => withToken(id, checkoutTokenOf(`${TEST_CHECKOUT_TOKEN_KEY}x`, id)),
    ],
    [
      'a truncated token',
      (id: string) => withToken(id, checkoutTokenOf(TEST_CHECKOUT_TOKEN_KEY, id).slice(0, 31)),
    ],
  ])('answers %s with the 404 of an unknown payment, without asking payments', async (_case, urlOf) => {
    const payment = standIn.add();
    const callsBefore = standIn.calls.length;
    const unknown = await getPage(pageUrl('pay_000000000000000000000000'));

    const { response, body } = await getPage(urlOf(payment.id));

    expect(response.status).toBe(404);
    expect(body.replace(/req_[A-Za-z0-9]+/, '')).toBe(unknown.body.replace(/req_[A-Za-z0-9]+/, ''));
    expect(standIn.calls.slice(callsBefore).map(({ paymentId }) => paymentId)).not.toContain(payment.id);
  });

  it('is checked on the form post and the event stream too', async () => {
    const payment = standIn.add();
    const wrong = withToken(payment.id, 'A'.repeat(32));
    const callsBefore = standIn.calls.length;

    const posted = await postAlias(wrong, ALIASES.pays);
    const stream = await fetch(`${wrong}/events`);
    const bare = await postAlias(`${checkout.baseUrl}/pay/${payment.id}`, ALIASES.pays);

    expect([posted.response.status, stream.status, bare.response.status]).toEqual([404, 404, 404]);
    expect(stream.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(standIn.calls.length).toBe(callsBefore);
    expect(checkout.eventStreams.size).toBe(0);
  });
});

describe('POST /pay/:paymentId/:token/attempts', () => {
  it('starts an attempt with the trimmed alias and redirects to the waiting screen', async () => {
    const payment = standIn.add();

    const { response } = await postAlias(pageUrl(payment.id), `  ${ALIASES.pays} `);
    const waiting = await getPage(pageUrl(payment.id));

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(pagePathOf(payment.id));
    expect(standIn.calls).toContainEqual({
      method: 'startAttempt',
      paymentId: payment.id,
      alias: ALIASES.pays,
    });
    expect(waiting.body).toContain('Validez le paiement dans votre application');
  });

  it.each([
    ['', 400, 'Saisissez votre numéro'],
    ['07 00 00 00 01', 400, 'Cet alias n’est pas valide'],
    ['+225 0000000001'.padEnd(41, '1'), 400, 'Cet alias n’est pas valide'],
    [ALIASES.unknown, 422, 'Cet alias n’est connu d’aucune banque'],
    // Control characters are refused on the form, as the API refuses them, before payments is asked.
    ['+225 0000000001\u0000', 400, 'Cet alias n’est pas valide'],
    ['+225\u001b0000000001', 400, 'Cet alias n’est pas valide'],
  ])('re-renders the form for alias %j with status %i', async (alias, status, message) => {
    const payment = standIn.add();

    const { response, body } = await postAlias(pageUrl(payment.id), alias);

    expect(response.status).toBe(status);
    expect(body).toContain(message);
    expect(body).toContain('aria-invalid="true"');
    expect(body).toContain('<title>Erreur : ');
    await expectValidHtml(body);
  });

  it('shows the hostile alias typed back, escaped', async () => {
    const payment = standIn.add();

    const { body } = await postAlias(pageUrl(payment.id), '"><script>x</script>');

    expect(body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    await expectValidHtml(body);
  });

  it('says so when the payment is out of attempts (409)', async () => {
    const payment = standIn.add();
    for (let attempt = 0; attempt < 5; attempt += 1) await postAlias(pageUrl(payment.id), ALIASES.unknown);

    const { response, body } = await postAlias(pageUrl(payment.id), ALIASES.pays);

    expect(response.status).toBe(409);
    expect(body).toContain('Nombre maximal de tentatives atteint');
    expect(body).not.toContain('<form');
    await expectValidHtml(body);
  });

  it('shows what a closed payment became instead of the form', async () => {
    const payment = standIn.add({ status: PaymentStatus.PAYMENT_STATUS_CANCELED });

    const { response } = await postAlias(pageUrl(payment.id), ALIASES.pays);

    expect(response.status).toBe(303);
    expect((await getPage(pageUrl(payment.id))).body).toContain('Paiement annulé');
  });

  it('offers the form again after the bank refused, with a notice', async () => {
    standIn.bankDelayMs = 0;
    const payment = standIn.add();

    await postAlias(pageUrl(payment.id), ALIASES.refuses);
    const { body } = await getPage(pageUrl(payment.id));

    expect(body).toContain('Votre demande précédente a été refusée');
    expect(body).toContain('<form');
    await expectValidHtml(body);
  });

  it.each([
    ['no Origin nor Referer', {}],
    ['another origin', { origin: 'https://evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['a Referer from another site', { referer: 'https://evil.example/pay' }],
  ])('refuses a form post with %s (CSRF), without calling payments', async (_case, headers) => {
    const payment = standIn.add();
    const callsBefore = standIn.calls.length;

    const { response, body } = await postAlias(pageUrl(payment.id), ALIASES.pays, headers);

    expect(response.status).toBe(403);
    expect(body).toContain('Requête refusée');
    expect(standIn.calls.length).toBe(callsBefore);
  });

  it('accepts a same-origin Referer when Origin is absent', async () => {
    const payment = standIn.add();

    const { response } = await postAlias(pageUrl(payment.id), ALIASES.pays, {
      referer: pageUrl(payment.id),
    });

    expect(response.status).toBe(303);
  });
});

describe('GET /pay/:paymentId/:token/events', () => {
  it('streams the status while waiting and closes on the final one', async () => {
    const payment = standIn.add();
    await postAlias(pageUrl(payment.id), ALIASES.pays);

    const { response, events, retry } = await readEventStream(`${pageUrl(payment.id)}/events`);

    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(retry).toBe('2000');
    expect(events.map(({ event, data }) => [event, JSON.parse(data)])).toEqual([
      ['status', { status: 'request_sent', screen: 'waiting:sent' }],
      ['status', { status: 'succeeded', screen: 'paid' }],
    ]);
  });

  it('sends the one current state of a payment that is not waiting, then closes', async () => {
    const payment = standIn.add({ status: PaymentStatus.PAYMENT_STATUS_EXPIRED });

    const { events } = await readEventStream(`${pageUrl(payment.id)}/events`);

    expect(events.map(({ data }) => JSON.parse(data))).toEqual([
      { status: 'expired', screen: 'outcome:expired' },
    ]);
  });

  it('keeps streaming through a payments outage', async () => {
    standIn.bankDelayMs = 800;
    const payment = standIn.add();
    await postAlias(pageUrl(payment.id), ALIASES.pays);

    const reading = readEventStream(`${pageUrl(payment.id)}/events`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    standIn.unavailable = true;
    await new Promise((resolve) => setTimeout(resolve, 300));
    standIn.unavailable = false;
    const { events } = await reading;

    expect(events.map(({ data }) => (JSON.parse(data) as { status: string }).status)).toEqual([
      'request_sent',
      'succeeded',
    ]);
  });

  it('answers 404 for an unknown payment', async () => {
    const response = await fetch(`${pageUrl('pay_000000000000000000000000')}/events`);

    expect(response.status).toBe(404);
    expect(checkout.eventStreams.size).toBe(0);
  });
});

describe('platform endpoints and assets', () => {
  it('serves /healthz on both ports, /readyz and /metrics on the operations port only', async () => {
    expect((await fetch(`${checkout.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${checkout.opsUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${checkout.opsUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${checkout.baseUrl}/readyz`)).status).toBe(404);
    expect((await fetch(`${checkout.baseUrl}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`${checkout.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/pay\/:paymentId\/:token"/);
    expect(metrics).toMatch(/checkout_event_streams_open\{[^}]*\} 0/);
  });

  it.each([
    ['/assets/checkout.css', 'text/css; charset=utf-8'],
    ['/assets/checkout.js', 'text/javascript; charset=utf-8'],
  ])('serves %s as %s', async (path, contentType) => {
    const response = await fetch(`${checkout.baseUrl}${path}`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
