import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  body: string;
}

/** What the receiver does with its n-th request (0-based): answer with a status, or never answer. */
export type Behaviour = (index: number) => number | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request came on them. */
  connections(): number;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint: a real HTTP server on a free port that records every request. */
export async function startReceiver(behaviour: Behaviour = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = requests.length;
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = behaviour(index);
      if (answer !== 'hang') response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/sika`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
