import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { Router } from 'express';

import { AppError } from '../errors';
import { currentRequestId } from '../context';
import { createLogger } from '../logger';
import { createMetrics } from '../metrics';
import { createHttpApp, finishHttpApp } from './app';
import { KEEP_ALIVE_TIMEOUT_MS, startHttpServer } from './server';
import type { RunningHttpServer } from './server';

const logLines: string[] = [];
const logger = createLogger({
  service: 'http-test',
  level: 'debug',
  destination: new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString());
      done();
    },
  }),
});

const metrics = createMetrics({ service: 'http-test' });
const metricsText = (): Promise<string> => metrics.registry.metrics();

let server: RunningHttpServer;
let baseUrl: string;

beforeAll(async () => {
  const app = createHttpApp({
    logger,
    metrics,
    bodyLimit: '1kb',
  });
  app.post('/v1/things', (request, response) => {
    response.json({ received: request.body as unknown, requestId: currentRequestId() ?? null });
  });
  app.get('/v1/things/:id', (request) => {
    throw new AppError('resource_missing', `No such thing: '${request.params.id}'`, { param: 'id' });
  });
  const mounted = Router();
  mounted.get('/widgets/:id', async (_request, response) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    response.json({ ok: true });
  });
  mounted.get('/gadgets/:id', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw new AppError('resource_missing', `No such gadget: '${request.params.id}'`, { param: 'id' });
  });
  app.use('/v2', mounted);
  app.get('/v1/own-properties', (request, response) => {
    response.json({ route: Object.getOwnPropertyDescriptor(request, 'route') ?? null });
  });
  app.get('/v1/saturated', () => {
    throw Object.assign(new Error('Unable to start a transaction in the given time.'), { code: 'P2028' });
  });
  app.get('/v1/broken', () => {
    throw new Error('SELECT * FROM secrets failed');
  });
  server = await startHttpServer(finishHttpApp(app), { host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${server.port}`;
});

afterAll(() => server.close());

function postRaw(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function errorOf(response: Response): Promise<Record<string, unknown>> {
  return ((await response.json()) as { error: Record<string, unknown> }).error;
}

describe('request ids', () => {
  it('makes a req_ id, echoes it as Request-Id and puts it in error bodies', async () => {
    const response = await fetch(`${baseUrl}/v1/things/thing_1`);

    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(await errorOf(response)).toMatchObject({ request_id: requestId });
  });

  it.each(['Request-Id', 'X-Request-Id'])('reuses a valid incoming %s', async (header) => {
    const response = await fetch(`${baseUrl}/healthz`, { headers: { [header]: 'upstream-id_42' } });

    expect(response.headers.get('request-id')).toBe('upstream-id_42');
  });

  it('replaces an incoming id that could inject text', async () => {
    const response = await fetch(`${baseUrl}/healthz`, { headers: { 'Request-Id': 'abc def"}' } });

    expect(response.headers.get('request-id')).toMatch(/^req_/);
  });

  it('is the current request id in handlers, even when the body arrives in several packets', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const outgoing = httpRequest(`${baseUrl}/v1/things`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'request-id': 'req_chunked' },
      });
      outgoing.on('response', (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve(text));
      });
      outgoing.on('error', reject);
      outgoing.write('{"name":');
      setTimeout(() => outgoing.end('"split"}'), 50);
    });

    expect(JSON.parse(body)).toEqual({ received: { name: 'split' }, requestId: 'req_chunked' });
  });
});

describe('JSON bodies', () => {
  it('are parsed for routes', async () => {
    const response = await postRaw('/v1/things', '{"amount": 1000}');

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: { amount: 1000 } });
  });

  it('answer 400 invalid_json when malformed', async () => {
    const response = await postRaw('/v1/things', '{"amount": ');

    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_json',
      message: 'The request body could not be parsed as JSON.',
      request_id: response.headers.get('request-id'),
    });
  });

  it('answer 413 body_too_large above the limit', async () => {
    const response = await postRaw('/v1/things', JSON.stringify({ description: 'x'.repeat(2_000) }));

    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({ type: 'invalid_request_error', code: 'body_too_large' });
  });

  it('answer 415 unsupported_encoding when compressed', async () => {
    const response = await postRaw('/v1/things', '{}', { 'content-encoding': 'br' });

    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: 'unsupported_encoding' });
  });
});

describe('errors', () => {
  it('answer 404 route_not_found in the envelope for an unknown route', async () => {
    const response = await fetch(`${baseUrl}/v1/nothing-here`, { method: 'DELETE' });

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await errorOf(response)).toEqual({
      type: 'invalid_request_error',
      code: 'route_not_found',
      message: 'Unrecognized request URL (DELETE /v1/nothing-here).',
      request_id: response.headers.get('request-id'),
    });
  });

  it('map an AppError thrown by a route with its status and param', async () => {
    const response = await fetch(`${baseUrl}/v1/things/thing_9`);

    expect(response.status).toBe(404);
    expect(await errorOf(response)).toMatchObject({ code: 'resource_missing', param: 'id' });
  });

  it('answer 503 service_unavailable with Retry-After when the database is saturated', async () => {
    const response = await fetch(`${baseUrl}/v1/saturated`);

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await errorOf(response)).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  });

  it('hide an unexpected error behind 500 internal_error, and log it with the request id', async () => {
    const response = await fetch(`${baseUrl}/v1/broken`);

    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(JSON.stringify(error)).not.toContain('SELECT');
    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'request failed', request_id: response.headers.get('request-id') }),
    );
  });
});

describe('health and metrics', () => {
  it('answers /healthz', async () => {
    const response = await fetch(`${baseUrl}/healthz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('keeps /readyz and /metrics off the public port (they answer on the operations port)', async () => {
    for (const path of ['/readyz', '/metrics']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatchObject({ code: 'route_not_found' });
    }
  });

  it('counts requests by route pattern, not raw path', async () => {
    await fetch(`${baseUrl}/v1/things/thing_123`);
    const text = await metricsText();

    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/v1\/things\/:id"[^}]*status_code="404"/,
    );
    expect(text).not.toContain('thing_123');
  });

  it('labels a route of a mounted router with its full pattern, on success and on error', async () => {
    await fetch(`${baseUrl}/v2/widgets/w_42`);
    expect((await fetch(`${baseUrl}/v2/gadgets/g_7`)).status).toBe(404);
    const text = await metricsText();

    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v2\/widgets\/:id"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v2\/gadgets\/:id"/);
    const logged = logLines
      .map((line) => JSON.parse(line) as { route?: string })
      .filter(({ route }) => route);
    expect(logged.map(({ route }) => route)).toEqual(
      expect.arrayContaining(['/v2/widgets/:id', '/v2/gadgets/:id']),
    );
  });

  it('labels routes without an accessor on each request (which would give every request a shape of its own)', async () => {
    const answer = (await (await fetch(`${baseUrl}/v1/own-properties`)).json()) as { route: unknown };
    expect(answer.route).toBeNull();
    const text = await metricsText();
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v1\/own-properties"/);
  });
});

describe('malformed URLs', () => {
  it('answer 400 parameter_invalid for broken percent-encoding in a path parameter', async () => {
    const response = await fetch(`${baseUrl}/v1/things/%E0%A4%A`);

    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_invalid' });
  });
});

describe('keep-alive', () => {
  it('keeps idle connections longer than clients and load balancers do, so clients close first', async () => {
    const response = await fetch(`${baseUrl}/v1/things/thing_1`);
    await response.arrayBuffer();
    expect(response.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });
});
