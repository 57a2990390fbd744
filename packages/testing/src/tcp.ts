import { connect } from 'node:net';

/**
 * True when something accepts TCP connections on host:port within timeoutMs. A refused connection
 * answers at once on loopback, so the timeout only matters for filtered ports.
 */
export function isPortOpen(host: string, port: number, timeoutMs = 300): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
