import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP hop in front of the gateway that loses the answer to the first request it carries, as a network
 * can: the request reaches the gateway and takes effect, its answer never comes back. Everything after is
 * carried as is. Records the bytes of every request, to read the headers each one carried.
 */
export async function startLossyProxy(target: { host: string; port: number }) {
  const requests: string[] = [];
  let answerLost = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      requests.push(chunk.toString('latin1'));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!answerLost) {
        answerLost = true;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The value of `header` in each request carried, in order. */
    headerValues: (header: string) =>
      requests.flatMap((request) => {
        const match = new RegExp(`^${header}: *(.*)$`, 'im').exec(request);
        return match?.[1] === undefined ? [] : [match[1].trim()];
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
