import { z } from 'zod';
import { PaymentSchema, type PublicPayment } from './payment';
import { PayoutSchema, type PublicPayout } from './payout';

/** Every event type of spec §6; the dispatcher only emits those whose producers exist. */
export const EVENT_TYPES = [
  'payment.request_sent',
  'payment.accepted_deferred',
  'payment.succeeded',
  'payment.declined',
  'payment.expired',
  'payment.canceled',
  'payment.failed',
  'payment.duplicate_refunded',
  'payout.paid',
  'payout.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The type of the event a merchant sends themselves (from the dashboard) to try their endpoint. Not a spec
 * §6 type: receivers are told to ignore the types they do not handle, which is all this one asks of them.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

export const TEST_EVENT_MESSAGE =
  'A test event sent to check this endpoint. It concerns no payment or payout: answer 2xx and change nothing.';

export const WebhookTestSchema = z
  .object({ object: z.literal('webhook_test'), message: z.string() })
  .meta({ id: 'WebhookTest', description: 'The data.object of a webhook.test event: about no record.' });

export const EventSchema = z
  .object({
    id: z
      .string()
      .regex(/^evt_[A-Za-z0-9]+$/)
      .describe('Process events idempotently on this id.'),
    object: z.literal('event'),
    type: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    created_at: z.iso.datetime(),
    livemode: z.boolean(),
    data: z
      .object({ object: z.union([PaymentSchema, PayoutSchema, WebhookTestSchema]) })
      .describe(
        'The related record as it stood right after the change, under `object`: the payment (metadata ' +
          'included) of a `payment.*` event, the payout of a `payout.*` event; for `webhook.test`, a ' +
          'WebhookTest.',
      ),
  })
  .meta({
    id: 'Event',
    description:
      'The body of a webhook delivery (spec §2.6, §4.10), and what GET /v1/events/{id} answers: the same JSON.',
  });

export type PublicEvent = z.infer<typeof EventSchema>;

export function renderEvent(event: {
  id: string;
  type: EventType;
  createdAt: Date;
  livemode: boolean;
  object: PublicPayment | PublicPayout;
}): PublicEvent {
  return {
    id: event.id,
    object: 'event',
    type: event.type,
    created_at: event.createdAt.toISOString(),
    livemode: event.livemode,
    data: { object: event.object },
  };
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
