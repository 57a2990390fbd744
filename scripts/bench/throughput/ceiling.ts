import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { runLoad, type LoadFigures } from './load';

/** The smallest Node.js HTTP server: it writes its port on stdout once listening. */
const HELLO_WORLD = `
const server = require('node:http').createServer((_request, response) => response.end('hello world'));
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

/**
 * Phase 1: what this machine, this Node.js and this load generator manage at all, on a server that does
 * nothing. It runs in a process of its own, as a service does, and shares the cores with the stack.
 */
export function measureCeiling(options: { connections: number; durationS: number }): Promise<LoadFigures> {
  return withServerProcess(HELLO_WORLD, (origin) => runLoad(origin, { method: 'GET', path: '/' }, options));
}

/**
 * Runs `source` (a server that writes its port on stdout once listening) in a Node.js process of its own for
 * as long as `use` takes, which gets its origin and pid.
 */
export async function withServerProcess<T>(
  source: string,
  use: (origin: string, pid: number) => Promise<T>,
): Promise<T> {
  const server = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [firstChunk] = (await once(server.stdout, 'data')) as [Buffer];
    const port = Number(firstChunk.toString('utf8').trim());
    return await use(`http://127.0.0.1:${port}`, server.pid as number);
  } finally {
    server.kill();
  }
}
