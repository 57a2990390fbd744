import { createServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { HttpWebhookSender } from '../src/infra/http-webhook-sender';
import { startReceiver, type Receiver } from './support/receiver';

/** A name that never resolves: reaching the receiver through it proves no DNS lookup was made. */
const HOST = 'webhooks.sika-pinned.invalid';

describe('HttpWebhookSender', () => {
  const sender = new HttpWebhookSender();
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  it('connects to the vetted address only, the host name kept as the Host header', async () => {
    const { port } = new URL(receiver.url);
    const result = await sender.post(
      { url: `http://${HOST}:${port}/hooks`, address: '127.0.0.1' },
      '{"id":"evt_1"}',
      { 'Content-Type': 'application/json' },
      2_000,
    );

    expect(result).toMatchObject({ statusCode: 200 });
    expect(receiver.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/hooks',
      body: '{"id":"evt_1"}',
      headers: expect.objectContaining({ host: `${HOST}:${port}`, 'content-length': '14' }),
    });
  });

  it('keeps the host name as the TLS server name (SNI) while connecting to the vetted address', async () => {
    const serverNames: string[] = [];
    // No certificate at all: the handshake fails once the server has read the name the client asked for.
    const server = createServer({
      SNICallback: (serverName, callback) => {
        serverNames.push(serverName);
        callback(new Error('no certificate here'), undefined);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await sender.post(
        { url: `https://${HOST}:${port}/hooks`, address: '127.0.0.1' },
        '{}',
        {},
        2_000,
      );
      expect(result).toMatchObject({ error: expect.any(String) });
      expect(serverNames).toEqual([HOST]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
