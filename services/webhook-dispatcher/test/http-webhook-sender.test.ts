import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:tls';
import type { AddressInfo, Socket } from 'node:net';
import { waitFor } from '@sika/testing';
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

  afterAll(async () => {
    sender.close();
    await receiver.close();
  });

  const postTo = (url: string, address = '127.0.0.1') =>
    sender.post({ url, address }, '{"id":"evt_1"}', { 'Content-Type': 'application/json' }, 2_000);

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

  it("reuses a connection for an endpoint's next deliveries instead of opening one each", async () => {
    const endpoint = await startReceiver();
    try {
      for (let i = 0; i < 3; i += 1) expect(await postTo(endpoint.url)).toMatchObject({ statusCode: 200 });
      expect(endpoint.requests).toHaveLength(3);
      expect(endpoint.connections()).toBe(1);
    } finally {
      await endpoint.close();
    }
  });

  it('reuses a connection only for the address it was opened to, whatever the host name', async () => {
    const { port } = new URL(receiver.url);
    expect(await postTo(`http://${HOST}:${port}/hooks`)).toMatchObject({ statusCode: 200 });
    // The receiver listens on 127.0.0.1 only: a delivery vetted to 127.0.0.2 must not ride its connection.
    expect(await postTo(`http://${HOST}:${port}/hooks`, '127.0.0.2')).toMatchObject({
      error: expect.stringMatching(/refused/i),
    });
  });

  it('sends again on a new connection when the endpoint closed the kept one as it was reused', async () => {
    // Answers the first request of each connection and cuts the connection on its second, unanswered.
    const requestsOn = new Map<Socket, number>();
    let delivered = 0;
    const server = createHttpServer((request, response) => {
      const count = (requestsOn.get(request.socket) ?? 0) + 1;
      requestsOn.set(request.socket, count);
      request.resume();
      request.on('end', () => {
        if (count > 1) {
          request.socket.destroy();
          return;
        }
        delivered += 1;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/hooks`;
      expect(await postTo(url)).toMatchObject({ statusCode: 200 });
      expect(await postTo(url)).toMatchObject({ statusCode: 200 });
      expect(delivered).toBe(2);
      expect(requestsOn.size).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('closes the connection rather than read a long answer to its end', async () => {
    // Idle connections kept for a minute on both sides: the one that closes is closed for its long answer.
    const patient = new HttpWebhookSender(60_000);
    const server = createHttpServer((request, response) => {
      request.resume();
      response.end('x'.repeat(1024 * 1024));
    });
    server.keepAliveTimeout = 120_000;
    const closed: boolean[] = [];
    server.on('connection', (socket: Socket) => {
      const index = closed.push(false) - 1;
      socket.on('close', () => (closed[index] = true));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const post = () =>
        patient.post({ url: `http://127.0.0.1:${port}/hooks`, address: '127.0.0.1' }, '{}', {}, 2_000);
      expect(await post()).toMatchObject({ statusCode: 200 });
      await waitFor(() => closed[0], { description: 'the connection of the long answer to close' });
      expect(await post()).toMatchObject({ statusCode: 200 });
      expect(closed).toHaveLength(2);
    } finally {
      patient.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
