import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy in front of the broker that the test can cut, to drop connections at a chosen moment. */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  /** Client connections accepted so far: each reconnection after a cut adds one. */
  accepted = 0;
  private readonly server = createServer((client) => this.pipe(client));

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy is not listening on TCP');
    return address.port;
  }

  /** Destroys every proxied connection at once, as a crashed broker or a network cut would. */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket): void {
    this.accepted += 1;
    const upstream = createConnection(this.target);
    for (const [socket, peer] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(socket);
      socket.pipe(peer);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        peer.destroy();
      });
    }
  }
}
