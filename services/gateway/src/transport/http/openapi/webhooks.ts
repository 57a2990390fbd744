import {
  TEST_EVENT_MESSAGE,
  TEST_EVENT_TYPE,
  type EventType,
  type PublicAttempt,
  type PublicEvent,
  type PublicPayment,
  type PublicPayout,
} from '@sika/public-api';

import { componentRef, type JsonSchema } from './json-schema';

type DeliveredType = EventType | typeof TEST_EVENT_TYPE;

/** When each event is sent (spec §6), and Sika's test event. */
const EMITTED_WHEN: Record<DeliveredType, string> = {
  'payment.request_sent': "The request to pay reached the customer's bank (a new attempt).",
  'payment.accepted_deferred': 'The customer accepted an on-delivery payment and will pay later.',
  'payment.succeeded': 'The money was received: fee_amount and net_amount are set, the net amount credited.',
  'payment.declined': 'The customer refused and no further attempt is possible: the payment is final.',
  'payment.expired': 'The deadline (expires_at) passed without payment.',
  'payment.canceled': 'The payment was canceled (POST /v1/payments/{id}/cancel or the dashboard).',
  'payment.failed': "A technical error at the customer's bank or the scheme: the payment is final.",
  'payment.duplicate_refunded':
    'A second validated attempt was refunded to the customer (its attempt has duplicate: true); the ' +
    "payment's status does not change.",
  'payout.paid': 'The payout reached the payout account: paid_at is set.',
  'payout.failed': 'The payout failed: failure_code is set and the amount is back in the available balance.',
  [TEST_EVENT_TYPE]:
    'Sent from the dashboard to try the endpoint; about no payment or payout. Answer 2xx, change nothing.',
};

const CREATED_AT = '2026-03-02T10:15:00.000Z';
const CHANGED_AT = '2026-03-02T10:15:42.000Z';

const ATTEMPT: PublicAttempt = {
  tx_id: 'SIKA4fZ81kQ0vN2hX7pL3mT9cR5bW6yD1sE',
  status: 'sent',
  payer_alias_masked: '+225 07******01',
  duplicate: false,
  failure_code: null,
  refund_status: null,
  created_at: '2026-03-02T10:15:30.000Z',
};

const PAYMENT: PublicPayment = {
  id: 'pay_8cQm2ZrT5vLx0NbW3kYs7Hd1',
  object: 'payment',
  status: 'request_sent',
  amount: 15_000,
  currency: 'XOF',
  fee_amount: null,
  net_amount: null,
  mode: 'immediate',
  reference: 'order-1042',
  description: 'Order 1042',
  tx_id: ATTEMPT.tx_id,
  payer_alias_masked: ATTEMPT.payer_alias_masked,
  checkout_url: 'https://pay.sika.example/pay/pay_8cQm2ZrT5vLx0NbW3kYs7Hd1/Jx3pQ8vRz1Lk5Nw0Tb7Yc2Hf9Md4Sa6G',
  return_url: 'https://shop.example/orders/1042/return',
  cancel_url: null,
  expires_at: '2026-03-02T10:20:00.000Z',
  created_at: CREATED_AT,
  livemode: false,
  metadata: { order_id: '1042' },
  attempts: [ATTEMPT],
};

const PAYOUT: PublicPayout = {
  id: 'po_5TgH1kLw9ZxC3vB7nM2qR8sD',
  object: 'payout',
  amount: 14_850,
  currency: 'XOF',
  status: 'paid',
  method: 'automatic',
  destination: { type: 'phone', alias: '+225 07******44', holder_name: 'Boutique Adjoua SARL' },
  failure_code: null,
  created_at: '2026-03-03T06:00:00.000Z',
  paid_at: '2026-03-03T06:00:04.000Z',
  livemode: false,
};

const payment = (changes: Partial<PublicPayment>, attempt: Partial<PublicAttempt> = {}): PublicPayment => ({
  ...PAYMENT,
  ...changes,
  attempts: changes.attempts ?? [{ ...ATTEMPT, ...attempt }],
});

const SUCCEEDED = payment(
  { status: 'succeeded', fee_amount: 150, net_amount: 14_850 },
  { status: 'succeeded' },
);

/** `data.object` of each example: the record as it stood right after the change. */
const EXAMPLE_OBJECTS: Record<DeliveredType, PublicEvent['data']['object']> = {
  'payment.request_sent': PAYMENT,
  'payment.accepted_deferred': payment(
    { mode: 'on_delivery', status: 'accepted_deferred', expires_at: '2026-03-09T10:15:00.000Z' },
    { status: 'accepted_deferred' },
  ),
  'payment.succeeded': SUCCEEDED,
  'payment.declined': payment({ status: 'declined' }, { status: 'declined', failure_code: 'payer_declined' }),
  'payment.expired': payment({ status: 'expired' }, { status: 'expired', failure_code: 'request_expired' }),
  'payment.canceled': payment({ status: 'canceled', tx_id: null, payer_alias_masked: null, attempts: [] }),
  'payment.failed': payment({ status: 'failed' }, { status: 'failed', failure_code: 'bank_failure' }),
  'payment.duplicate_refunded': {
    ...SUCCEEDED,
    attempts: [
      ...SUCCEEDED.attempts,
      {
        ...ATTEMPT,
        tx_id: 'SIKA9bN3xQ7wL1kZ5vT8mR2cH4pY6dF0sJ',
        payer_alias_masked: '+225 05******17',
        status: 'succeeded',
        duplicate: true,
        refund_status: 'sent',
        created_at: '2026-03-02T10:16:05.000Z',
      },
    ],
  },
  'payout.paid': PAYOUT,
  'payout.failed': { ...PAYOUT, status: 'failed', failure_code: 'account_frozen', paid_at: null },
  [TEST_EVENT_TYPE]: { object: 'webhook_test', message: TEST_EVENT_MESSAGE },
};

/** The body of a delivery of `type`, as Sika sends it (and GET /v1/events/{id} answers it). */
export function exampleEvent(type: DeliveredType): PublicEvent {
  return {
    id: 'evt_2WfK8mQz4Tn1Lx7Cv0Bp9Rs3',
    object: 'event',
    type,
    created_at: CHANGED_AT,
    livemode: false,
    data: { object: EXAMPLE_OBJECTS[type] },
  };
}

/**
 * OpenAPI 3.1 `webhooks`: one entry per event type, the POST Sika makes to the merchant's endpoint (spec
 * §4.10, §6) with an example body, so that code generated from the document types webhook handlers too.
 */
export function webhooksSection(): Record<string, JsonSchema> {
  return Object.fromEntries(
    (Object.keys(EMITTED_WHEN) as DeliveredType[]).map((type) => [
      type,
      {
        post: {
          summary: type,
          description:
            `${EMITTED_WHEN[type]} Signed with Service-Signature; retried after 1 min, 5 min, 30 min, 2 h and ` +
            '12 h until answered 2xx within 10 seconds; the same event (same id) may arrive more than once. ' +
            'Missed ones can be read back with GET /v1/events.',
          parameters: [
            {
              name: 'Service-Signature',
              in: 'header',
              required: true,
              description:
                't=<timestamp>,v1=<signature>: the hexadecimal HMAC-SHA256 of "<timestamp>.<raw body>" with the ' +
                "endpoint's whsec_ secret (spec §5.5); while a rolled secret overlaps, a second v1 entry. Reject " +
                'a timestamp older than 5 minutes.',
              schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [componentRef('Event'), { type: 'object', properties: { type: { const: type } } }],
                },
                example: exampleEvent(type),
              },
            },
          },
          responses: {
            '2XX': { description: 'Received. Answer within 10 seconds, before any long processing.' },
            default: { description: 'Not received: the delivery is retried on the schedule above.' },
          },
        },
      },
    ]),
  );
}
