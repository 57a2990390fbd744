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

export const EventSchema = z
  .object({
    id: z
      .string()
      .regex(/^evt_[A-Za-z0-9]+$/)
      .describe('Process events idempotently on this id.'),
    object: z.literal('event'),
    type: z.enum(EVENT_TYPES),
    created_at: z.iso.datetime(),
    livemode: z.boolean(),
    data: z
      .object({ object: z.union([PaymentSchema, PayoutSchema]) })
      .describe(
        'The related record as it stood right after the change, under `object`: the payment (metadata ' +
          'included) of a `payment.*` event, the payout of a `payout.*` event.',
      ),
  })
  .meta({ id: 'Event', description: 'The body of a webhook delivery (spec §2.6, §4.10).' });

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
