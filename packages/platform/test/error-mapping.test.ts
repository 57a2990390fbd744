import type { Express } from 'express';
import { Writable } from 'node:stream';

import {
  createGrpcClient,
  createHttpApp,
  createLogger,
  createMetrics,
  finishHttpApp,
  startHttpServer,
} from '@sika/platform';
import type { GrpcClient, RunningHttpServer } from '@sika/platform';
import { grpcHealthStatus, testIdentity } from '@sika/testing';

import { ECHO_SERVICE_NAME, EchoServiceClient } from './fixtures/echo-service';
import { fixture, jsonLines, spawnTypeScript } from './helpers/child-process';
import type { RunningChild } from './helpers/child-process';

/**
 * Two real processes: a gRPC server (child) whose handlers throw, and this test's HTTP app calling it
 * through the platform client. What the public sees must carry the code thrown three hops away.
 */
let grpcProcess: RunningChild;
let grpcAddress: string;
let echo: GrpcClient<EchoServiceClient>;
let http: RunningHttpServer;
let baseUrl: string;

const silentLogger = createLogger({
  service: 'error-mapping-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

function buildApp(): Express {
  const app = createHttpApp({
    logger: silentLogger,
    metrics: createMetrics({ service: 'error-mapping-test' }),
  });
  app.post('/v1/echo', async (request, response) => {
    response.json(await echo.echo({ text: String((request.body as { text?: unknown }).text) }));
  });
  app.post('/v1/domain-error', async () => {
    await echo.failWithDomainError({ text: 'refuse me' });
  });
  app.post('/v1/plain-error', async () => {
    await echo.failWithPlainError({ text: 'break' });
  });
  app.post('/v1/slow', async (_request, response) => {
    response.json(await echo.echo({ text: 'slow', delayMs: 1_000 }, { deadlineMs: 100 }));
  });
  return finishHttpApp(app);
}

beforeAll(async () => {
  grpcProcess = spawnTypeScript(fixture('grpc-server-main.ts'), (await testIdentity('ledger')).env);
  const listening = await grpcProcess.waitForLine((line) => line.includes('grpc server listening'));
  grpcAddress = `127.0.0.1:${(JSON.parse(listening) as { port: number }).port}`;
  echo = createGrpcClient(EchoServiceClient, grpcAddress, {
    deadlineMs: 2_000,
    tls: (await testIdentity('gateway')).tls,
  });
  http = await startHttpServer(buildApp(), { host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${http.port}`;
}, 30_000);

afterAll(async () => {
  echo?.close();
  await http?.close();
  grpcProcess?.child.kill('SIGTERM');
  await grpcProcess?.exited;
});

function post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('a domain error thrown behind gRPC', () => {
  it('comes out of HTTP with the same code, its param, its status and the request id', async () => {
    const response = await post('/v1/domain-error');

    expect(response.status).toBe(409);
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(await response.json()).toEqual({
      error: {
        type: 'idempotency_error',
        code: 'idempotency_key_reused',
        message: 'Keys for idempotent requests can only be used with the same body.',
        param: 'Idempotency-Key',
        request_id: requestId,
      },
    });
    // The gRPC server logged the call under the same request id: it travelled in the metadata.
    const serverLog = await grpcProcess.waitForLine((line) => line.includes('about to refuse'));
    expect(JSON.parse(serverLog)).toMatchObject({ request_id: requestId, service: 'echo-fixture' });
    const callLog = await grpcProcess.waitForLine(
      (line) => line.includes('"grpc call"') && line.includes('FailWithDomainError'),
    );
    expect(JSON.parse(callLog)).toMatchObject({
      request_id: requestId,
      grpc_code: 'FAILED_PRECONDITION',
      error_code: 'idempotency_key_reused',
    });
  });

  it('keeps a request id given by the caller all the way to the gRPC handler', async () => {
    const response = await post(
      '/v1/echo',
      { text: 'hello' },
      { 'Request-Id': 'req_fromTheCaller0000000001' },
    );

    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toBe('req_fromTheCaller0000000001');
    expect(await response.json()).toEqual({
      text: 'hello',
      requestId: 'req_fromTheCaller0000000001',
      deadlineSet: true,
    });
  });
});

describe('an unexpected error thrown behind gRPC', () => {
  it('comes out as 500 internal_error with a generic message and nothing of the internals', async () => {
    const response = await post('/v1/plain-error');

    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body).toEqual({
      error: {
        type: 'api_error',
        code: 'internal_error',
        message: expect.stringContaining('unexpected error') as unknown,
        request_id: response.headers.get('request-id'),
      },
    });
    expect(JSON.stringify(body)).not.toContain('10.0.0.7');
    // The server logged the real cause, for the operator.
    const callLog = await grpcProcess.waitForLine(
      (line) => line.includes('"grpc call"') && line.includes('FailWithPlainError'),
    );
    expect(JSON.parse(callLog)).toMatchObject({
      level: 'error',
      grpc_code: 'INTERNAL',
      error_code: 'internal_error',
    });
    expect(callLog).toContain('10.0.0.7');
  });
});

describe('a gRPC call that outlives its deadline', () => {
  it('comes out as 503 service_unavailable', async () => {
    const response = await post('/v1/slow');

    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: { type: 'api_error', code: 'service_unavailable' },
    });
  });
});

describe('grpc.health.v1 of the server process', () => {
  it.each(['', ECHO_SERVICE_NAME])('answers SERVING for %j', async (service) => {
    expect(await grpcHealthStatus(grpcAddress, service)).toBe('SERVING');
  });
});

describe('the gRPC server process on SIGTERM', () => {
  it('stops gracefully and exits 0', async () => {
    grpcProcess.child.kill('SIGTERM');

    expect(await grpcProcess.exited).toEqual({ code: 0, signal: null });
    expect(jsonLines(grpcProcess.stdoutLines).map((line) => line['msg'])).toEqual(
      expect.arrayContaining(['shutting down', 'grpc server stopped', 'shutdown complete']),
    );
  });
});
