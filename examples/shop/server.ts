import express from 'express';
import { constructEvent, Sika, SikaSignatureVerificationError } from '@sika/node';

import { findOrder, newOrder, settleOrder } from './orders';

// Configuration: the test secret key, the webhook secret (the endpoint's, or the one `sika listen` prints).
const port = Number(process.env.PORT ?? 3000);
const shopUrl = process.env.SHOP_URL ?? `http://localhost:${port}`;
const webhookSecret = process.env.SIKA_WEBHOOK_SECRET ?? '';
if (!process.env.SIKA_SECRET_KEY || !webhookSecret) {
  throw new Error('Set SIKA_SECRET_KEY (sk_test_…) and SIKA_WEBHOOK_SECRET (whsec_…).');
}
const sika = new Sika(process.env.SIKA_SECRET_KEY, { baseUrl: process.env.SIKA_API_BASE });

const PRODUCT = { name: 'Wax fabric, 6 yards', amount: 2_500 };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string, refresh = false) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  `${refresh ? '<meta http-equiv="refresh" content="2">' : ''}</head><body><main>${body}</main></body></html>`;

const app = express();

app.get('/', (_request, response) => {
  response.send(
    page(
      'Boutique',
      `<h1>${escape(PRODUCT.name)}</h1><p>${PRODUCT.amount} XOF</p>` +
        '<form method="post" action="/orders"><button type="submit">Buy</button></form>',
    ),
  );
});

// The order, then its payment; the customer goes to Sika's hosted page and comes back to the order's page.
app.post('/orders', async (_request, response) => {
  const order = newOrder(PRODUCT.name, PRODUCT.amount);
  const payment = await sika.payments.create(
    {
      amount: order.amount,
      reference: `order-${order.id}`,
      description: order.product,
      return_url: `${shopUrl}/orders/${order.id}`,
      cancel_url: `${shopUrl}/`,
      metadata: { order_id: order.id },
    },
    // The same order never makes two payments, even if this request is retried.
    { idempotencyKey: `order-${order.id}` },
  );
  order.paymentId = payment.id;
  response.redirect(303, payment.checkout_url);
});

// Coming back from the hosted page proves nothing (spec §1): the order is paid when the webhook says so.
app.get('/orders/:id', (request, response) => {
  const order = findOrder(request.params.id);
  if (order === undefined) {
    response.status(404).send(page('Not found', '<h1>No such order</h1>'));
    return;
  }
  const status = {
    awaiting_payment: 'Waiting for the payment’s confirmation…',
    paid: `Paid. Thank you! (confirmed by ${escape(order.settledBy ?? '')})`,
    not_paid: 'Not paid.',
  }[order.status];
  response.send(
    page(
      `Order ${order.id}`,
      `<h1>Order ${escape(order.id)}</h1><p>${escape(order.product)}, ${order.amount} XOF</p>` +
        `<p role="status" data-status="${order.status}">${status}</p>`,
      order.status === 'awaiting_payment',
    ),
  );
});

// The raw body, as received: the signature covers its exact bytes.
app.post('/webhooks', express.raw({ type: 'application/json' }), (request, response) => {
  let event;
  try {
    event = constructEvent(request.body as Buffer, request.get('Service-Signature'), webhookSecret);
  } catch (error) {
    if (error instanceof SikaSignatureVerificationError) {
      console.warn(`webhook refused: ${error.reason}`);
      response.status(400).send(error.reason);
      return;
    }
    throw error;
  }
  const orderId = (event.data.object['metadata'] as Record<string, string> | undefined)?.['order_id'];
  if (orderId !== undefined) {
    if (event.type === 'payment.succeeded') settleOrder(orderId, 'paid', event.id);
    if (['payment.declined', 'payment.expired', 'payment.canceled', 'payment.failed'].includes(event.type)) {
      settleOrder(orderId, 'not_paid', event.id);
    }
  }
  console.log(`webhook ${event.type} ${event.id} verified`);
  // 2xx for every type, known or not: Sika may add types.
  response.sendStatus(204);
});

app.listen(port, () => console.log(`Shop listening on ${shopUrl}`));
