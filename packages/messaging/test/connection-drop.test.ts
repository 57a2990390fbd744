import { createBroker, type Broker } from '../src';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';
import { TcpProxy } from './support/tcp-proxy';

const MESSAGES = 1_000;
/** Publishes awaiting their confirm at any moment, like a relay publishing a batch. */
const WINDOW = 100;

/** Generous for a loaded CI machine; the test takes 2–5 s. */
jest.setTimeout(30_000);

describe('broker connection dropped while publishing', () => {
  let admin: RabbitAdmin;
  let proxy: TcpProxy;
  let broker: Broker | undefined;

  beforeAll(async () => {
    admin = await RabbitAdmin.open();
    const target = new URL(admin.amqpUrl);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5672) });
  });

  afterAll(async () => {
    await broker?.close();
    await proxy.close();
    await admin.cleanup();
  });

  it('loses no confirmed publish', async () => {
    const { exchange, queue } = admin.names('drop');
    await admin.channel.assertExchange(exchange, 'topic', { durable: true });
    await admin.channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await admin.channel.bindQueue(queue, exchange, '#');

    const viaProxy = new URL(admin.amqpUrl);
    viaProxy.port = String(proxy.port);
    const publisher = await createBroker({
      url: viaProxy.toString(),
      logger: testLogger('connection-drop-test'),
      reconnectSeconds: 0.1,
      publishTimeoutMs: 5_000,
    });
    broker = publisher;

    const confirmed = new Set<string>();
    let rejected = 0;
    let cuts = 0;
    const inFlight = new Set<Promise<void>>();
    for (let n = 0; n < MESSAGES; n++) {
      const id = `msg_${n}`;
      const publish = publisher
        .publish(exchange, 'test.dropped', Buffer.from(String(n)), { messageId: id })
        .then(
          () => void confirmed.add(id),
          () => void (rejected += 1),
        )
        .finally(() => inFlight.delete(publish));
      inFlight.add(publish);
      // Cut twice, mid-stream: once a third and once two thirds of the messages were handed over.
      if (n === Math.floor(MESSAGES / 3) || n === Math.floor((2 * MESSAGES) / 3)) {
        proxy.cutAll();
        cuts += 1;
      }
      if (inFlight.size >= WINDOW) await Promise.race(inFlight);
    }
    await Promise.allSettled(inFlight);

    // A confirm from a quorum queue means the message is stored: no waiting before counting.
    const inQueue = (await admin.drain(queue)).map((message) => String(message.properties.messageId));
    const present = new Set(inQueue);
    const lost = [...confirmed].filter((id) => !present.has(id));

    expect(cuts).toBe(2);
    expect(proxy.accepted).toBeGreaterThanOrEqual(3); // the first connection and one after each cut
    expect(lost).toEqual([]);
    // Publishes caught unconfirmed by a cut are sent again after reconnecting, within the publish timeout.
    expect(rejected).toBe(0);
    process.stdout.write(
      `connection drop: ${confirmed.size} confirmed, ${rejected} rejected, ` +
        `${inQueue.length} in queue (${inQueue.length - present.size} duplicates from re-sends)\n`,
    );
  });
});
