import { connect } from 'amqplib';
import { createRabbitScope, deleteRabbitObjects, resolveAmqpUrl, uniqueName } from '@sika/testing';

async function queueExists(amqpUrl: string, queue: string): Promise<boolean> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    return await channel.checkQueue(queue).then(
      () => true,
      () => false,
    );
  } finally {
    await connection.close();
  }
}

describe('RabbitMQ isolation', () => {
  it('cleanup() deletes the queues and exchanges a scope named or tracked', async () => {
    const scope = await createRabbitScope();
    const exchange = scope.name('events');
    const queue = scope.name('consumer');
    scope.track(`${queue}.dlq`);

    const connection = await connect(scope.amqpUrl);
    const channel = await connection.createChannel();
    await channel.assertExchange(exchange, 'topic', { durable: false });
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(`${queue}.dlq`);
    await channel.bindQueue(queue, exchange, '#');
    await connection.close();
    expect(await queueExists(scope.amqpUrl, queue)).toBe(true);

    await scope.cleanup();

    expect(await queueExists(scope.amqpUrl, queue)).toBe(false);
    expect(await queueExists(scope.amqpUrl, `${queue}.dlq`)).toBe(false);
  });

  it('deleting names that do not exist is not an error', async () => {
    await expect(
      deleteRabbitObjects(await resolveAmqpUrl(), {
        queues: [uniqueName('never')],
        exchanges: [uniqueName('never')],
      }),
    ).resolves.toBeUndefined();
  });
});
