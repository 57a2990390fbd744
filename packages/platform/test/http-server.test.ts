import { Agent, request } from 'node:http';
import { Writable } from 'node:stream';

import {
  createHttpApp,
  createLogger,
  createMetrics,
  finishHttpApp,
  startHttpServer,
  startMetricsServer,
} from '@sika/platform';
import type { ReadinessCheck } from '@sika/platform';

const quietLogger = createLogger({
  service: 'http-server-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

/** GET through a keep-alive agent, the way load balancers and service clients hold connections. */
function get(
  url: string,
  agent: Agent,
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('startHttpServer(...).close', () => {
  it('finishes requests in flight, closes idle keep-alive connections, and resolves well before the grace period', async () => {
    const app = createHttpApp({
      logger: quietLogger,
      metrics: createMetrics({ service: 'http-server-test' }),
    });
    app.get('/slow', async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      response.json({ done: true });
    });
    const server = await startHttpServer(finishHttpApp(app), { host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const base = `http://127.0.0.1:${server.port}`;
    // One idle keep-alive connection, one busy.
    expect((await get(`${base}/healthz`, agent)).status).toBe(200);
    const slow = get(`${base}/slow`, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const startedAt = Date.now();
    await server.close(10_000);
    const closeMs = Date.now() - startedAt;

    expect(await slow).toMatchObject({ status: 200, body: '{"done":true}', connection: 'close' });
    expect(closeMs).toBeLessThan(2_000);
    await expect(get(`${base}/healthz`, agent)).rejects.toThrow();
    agent.destroy();
  });
});

describe('startMetricsServer', () => {
  it('serves /metrics, /healthz and /readyz for processes without an HTTP app', async () => {
    let brokerUp = false;
    const readiness: ReadinessCheck[] = [
      {
        name: 'broker',
        check: async () => {
          if (!brokerUp) throw new Error('not connected');
        },
      },
    ];
    const logged: string[] = [];
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      metrics: createMetrics({ service: 'outbox-relay' }),
      readiness,
      logger: createLogger({
        service: 'outbox-relay',
        destination: new Writable({
          write: (chunk: Buffer, _encoding, done) => {
            logged.push(chunk.toString());
            done();
          },
        }),
      }),
    });
    const base = `http://127.0.0.1:${server.port}`;
    try {
      // Port 0: the log line is how a process tells where its probes are.
      expect(logged.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
        expect.objectContaining({ msg: 'metrics server listening', host: '127.0.0.1', port: server.port }),
      );
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="outbox-relay"');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${base}/readyz`);
      expect([notReady.status, await notReady.json()]).toEqual([
        503,
        { ready: false, checks: { broker: 'failed' } },
      ]);
      brokerUp = true;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
