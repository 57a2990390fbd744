import { Socket } from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import { createBroker } from '../src';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';

/**
 * amqplib writes the frames its channels queued in a turn one socket write at a time; the patch in
 * patches/amqplib@2.3.1.patch corks the socket while it writes them, so they leave in one writev. On the money
 * path a relay publishes a batch of events and a consumer acks the messages of one read: without the patch,
 * each is a syscall (and a packet, Nagle being off).
 */
const FRAMES = 50;

jest.setTimeout(30_000);

/** Counts the socket writes (each a syscall) of the amqplib connection, whatever buffers each carries. */
function countWrites(model: ChannelModel): { writes: number } {
  const socket = (model as unknown as { connection: { stream: Socket } }).connection.stream;
  const counter = { writes: 0 };
  const write = socket._write.bind(socket);
  const writev = socket._writev!.bind(socket);
  socket._write = (...args) => {
    counter.writes += 1;
    write(...args);
  };
  socket._writev = (...args) => {
    counter.writes += 1;
    writev(...args);
  };
  return counter;
}

describe('amqplib socket writes', () => {
  let admin: RabbitAdmin;
  let model: ChannelModel;

  beforeAll(async () => {
    admin = await RabbitAdmin.open();
    model = await connect(admin.amqpUrl);
  });

  afterAll(async () => {
    await model.close();
    await admin.cleanup();
  });

  it("send a turn's publishes in one write", async () => {
    const { queue } = admin.names('writes-publish');
    const channel = await model.createConfirmChannel();
    await channel.assertQueue(queue, { durable: false });
    const counter = countWrites(model);

    for (let n = 0; n < FRAMES; n++) channel.sendToQueue(queue, Buffer.from(String(n)));
    await channel.waitForConfirms();

    expect(await admin.messageCount(queue)).toBe(FRAMES);
    expect(counter.writes).toBeLessThanOrEqual(2);
    await channel.close();
  });

  it("send a turn's acks in one write", async () => {
    const { queue } = admin.names('writes-ack');
    const channel = await model.createChannel();
    await channel.assertQueue(queue, { durable: false });
    for (let n = 0; n < FRAMES; n++) channel.sendToQueue(queue, Buffer.from(String(n)));
    const messages = [];
    while (messages.length < FRAMES) {
      const message = await channel.get(queue);
      if (message !== false) messages.push(message);
    }
    const counter = countWrites(model);

    for (const message of messages) channel.ack(message);
    // A round trip on the same channel: the broker has read every ack before it answers.
    await channel.checkQueue(queue);
    expect(counter.writes).toBeLessThanOrEqual(2);

    // Unacknowledged messages would be back in the queue once their channel is closed.
    await channel.close();
    expect(await admin.messageCount(queue)).toBe(0);
  });
});

describe("the broker's connection", () => {
  it("turns Nagle's algorithm off", async () => {
    // amqplib sets it on every socket it opens, on or off: on, a consumer's ack followed by a publish waited up
    // to 40 ms for the broker's delayed TCP acknowledgement of the ack.
    const admin = await RabbitAdmin.open();
    const setNoDelay = jest.spyOn(Socket.prototype, 'setNoDelay');
    try {
      const broker = await createBroker({ url: admin.amqpUrl, logger: testLogger('socket-test') });
      await broker.close();
      expect(setNoDelay.mock.calls).toEqual([[true]]);
    } finally {
      setNoDelay.mockRestore();
      await admin.cleanup();
    }
  });
});
