import { connect } from 'amqplib';
import type { Channel, ChannelModel } from 'amqplib';
import { paymentsV1, REFUND_REQUESTS } from '@sika/contracts';
import { waitFor } from '@sika/testing';

export interface ReceivedEvent {
  routingKey: string;
  messageId: string;
  event: paymentsV1.PaymentEvent;
}

/** A queue of its own bound to `payments.#` on the test exchange: what a consumer of payment events sees. */
export class EventTap {
  readonly received: ReceivedEvent[] = [];
  /** payments.refund.requested messages, decoded. */
  readonly refundRequests: paymentsV1.RefundRequested[] = [];

  private constructor(
    private readonly connection: ChannelModel,
    private readonly channel: Channel,
  ) {}

  static async open(amqpUrl: string, exchange: string, queue: string): Promise<EventTap> {
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: false });
    await channel.bindQueue(queue, exchange, 'payments.#');
    const tap = new EventTap(connection, channel);
    await channel.consume(
      queue,
      (message) => {
        if (message === null) return;
        if (message.fields.routingKey === REFUND_REQUESTS.routingKey) {
          tap.refundRequests.push(REFUND_REQUESTS.codec.decode(message.content));
          return;
        }
        tap.received.push({
          routingKey: message.fields.routingKey,
          messageId: String(message.properties.messageId),
          event: paymentsV1.PaymentEvent.decode(message.content),
        });
      },
      { noAck: true },
    );
    return tap;
  }

  of(paymentId: string): ReceivedEvent[] {
    return this.received.filter((entry) => entry.event.payment?.id === paymentId);
  }

  typesOf(paymentId: string): string[] {
    return this.of(paymentId).map((entry) => entry.event.type);
  }

  waitForEvent(paymentId: string, type: string): Promise<ReceivedEvent> {
    return waitFor(() => this.of(paymentId).find((entry) => entry.event.type === type), {
      description: `${type} for ${paymentId}`,
    });
  }

  async close(): Promise<void> {
    await this.channel.close();
    await this.connection.close();
  }
}
