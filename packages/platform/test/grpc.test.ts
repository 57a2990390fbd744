import { Writable } from 'node:stream';

import {
  AppError,
  createGrpcClient,
  createLogger,
  createMetrics,
  currentContext,
  runWithContext,
  startGrpcServer,
  unary,
  unaryHandler,
} from '@sika/platform';
import type { GrpcCallOptions, GrpcClient, RunningGrpcServer } from '@sika/platform';
import { allowEveryMethod, grpcHealthStatus, testIdentity } from '@sika/testing';

import { ECHO_SERVICE_NAME, EchoServiceClient, EchoServiceService } from './fixtures/echo-service';
import type { EchoRequest, EchoResponse, EchoServiceServer } from './fixtures/echo-service';

/** The gRPC helpers in one process: deadlines, request ids, health, graceful shutdown, metrics, types. */
const quietLogger = createLogger({
  service: 'grpc-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

const implementation = {
  echo: unaryHandler(async (request: EchoRequest): Promise<EchoResponse> => {
    if (request.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, request.delayMs));
    const context = currentContext();
    return {
      text: request.text,
      requestId: context?.requestId ?? '',
      deadlineSet: context?.deadline !== undefined,
    };
  }),
  failWithDomainError: unaryHandler(async (): Promise<EchoResponse> => {
    throw new AppError('payment_already_final', 'The payment is already final.');
  }),
  // A plain async handler (no unaryHandler): its rejection must be mapped as well.
  failWithPlainError: async () => {
    throw new Error('boom');
  },
} satisfies EchoServiceServer;

async function startEchoServer(): Promise<{
  server: RunningGrpcServer;
  address: string;
  metricsText: () => Promise<string>;
}> {
  const metrics = createMetrics({ service: 'grpc-test' });
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      {
        definition: EchoServiceService,
        implementation,
        callers: allowEveryMethod(EchoServiceService, ['payments']),
      },
    ],
    tls: (await testIdentity('ledger')).tls,
    logger: quietLogger,
    metrics,
  });
  return { server, address: `127.0.0.1:${server.port}`, metricsText: () => metrics.registry.metrics() };
}

/** A client of the echo server, as the caller its allowlist names. */
async function echoClient(address: string, deadlineMs: number): Promise<GrpcClient<EchoServiceClient>> {
  return createGrpcClient(EchoServiceClient, address, {
    deadlineMs,
    tls: (await testIdentity('payments')).tls,
  });
}

describe('with a running server', () => {
  let running: Awaited<ReturnType<typeof startEchoServer>>;
  let echo: GrpcClient<EchoServiceClient>;

  beforeAll(async () => {
    running = await startEchoServer();
    echo = await echoClient(running.address, 2_000);
  });

  afterAll(async () => {
    echo.close();
    await running.server.shutdown(1_000);
  });

  it('types the promise client after the generated client', () => {
    const echoMethod: (request: EchoRequest, options?: GrpcCallOptions) => Promise<EchoResponse> = echo.echo;
    // Never called: the checks are the @ts-expect-error lines, verified by the type checker.
    const misuses = (): void => {
      // @ts-expect-error close is a Client method, not a unary RPC
      void unary(echo.raw, 'close', {});
      // @ts-expect-error the request must have the generated request type
      void echo.echo({ wrong: true });
    };
    expect([typeof echoMethod, typeof misuses]).toEqual(['function', 'function']);
  });

  it('rejects with an AppError when used after close', async () => {
    const closed = await echoClient(running.address, 2_000);
    closed.close();

    await expect(closed.echo({ text: 'hi' })).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('gives the handler a new req_ id when the caller has none, and a deadline', async () => {
    const response = await echo.echo({ text: 'hi' });

    expect(response).toEqual({
      text: 'hi',
      requestId: expect.stringMatching(/^req_[0-9A-Za-z]{24}$/) as unknown,
      deadlineSet: true,
    });
  });

  it('forwards the request id of the current context', async () => {
    const response = await runWithContext({ requestId: 'req_outer' }, () =>
      unary(echo.raw, 'echo', { text: 'hi' }),
    );

    expect(response.requestId).toBe('req_outer');
  });

  it('never waits past the deadline of the call being served', async () => {
    const startedAt = Date.now();
    const call = runWithContext({ requestId: 'req_hurry', deadline: new Date(Date.now() + 100) }, () =>
      echo.echo({ text: 'slow', delayMs: 1_000 }, { deadlineMs: 5_000 }),
    );

    await expect(call).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - startedAt).toBeLessThan(800);
  });

  it('maps an AppError and a rejected plain async handler', async () => {
    await expect(echo.failWithDomainError({ text: '' })).rejects.toMatchObject({
      code: 'payment_already_final',
    });
    await expect(echo.failWithPlainError({ text: '' })).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('measures calls by method and status code', async () => {
    await echo.echo({ text: 'measured' });

    const text = await running.metricsText();
    expect(text).toMatch(/grpc_server_handling_seconds_count\{[^}]*grpc_method="Echo",grpc_code="OK"/);
    expect(text).toMatch(
      /grpc_server_handling_seconds_count\{[^}]*grpc_method="FailWithDomainError",grpc_code="FAILED_PRECONDITION"/,
    );
  });
});

describe('shutdown', () => {
  /**
   * A client that has made one call, so its connection (and TLS handshake) is done: on a busy machine a first
   * call could still be connecting when the server closes, and fail as refused instead of being served or
   * cancelled as the test means.
   */
  async function connectedEchoClient(address: string, deadlineMs: number) {
    const echo = await echoClient(address, deadlineMs);
    await echo.echo({ text: 'connected' });
    return echo;
  }

  it('reports NOT_SERVING, lets the call in flight finish, then refuses new calls', async () => {
    const { server, address } = await startEchoServer();
    const echo = await connectedEchoClient(address, 2_000);
    expect(await grpcHealthStatus(address, ECHO_SERVICE_NAME)).toBe('SERVING');

    server.setServing(false);
    expect(await grpcHealthStatus(address, '')).toBe('NOT_SERVING');
    expect(await grpcHealthStatus(address, ECHO_SERVICE_NAME)).toBe('NOT_SERVING');

    const inFlight = echo.echo({ text: 'last one', delayMs: 200 });
    // Attached before shutdown(), during which the call settles.
    const served = expect(inFlight).resolves.toMatchObject({ text: 'last one' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    await server.shutdown(5_000);

    await served;
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    await expect(echo.echo({ text: 'too late' })).rejects.toMatchObject({ code: 'service_unavailable' });
    echo.close();
  });

  it('cancels calls still running after the grace period', async () => {
    const { server, address } = await startEchoServer();
    const echo = await connectedEchoClient(address, 5_000);

    const stuck = echo.echo({ text: 'stuck', delayMs: 1_000 });
    // Attached before shutdown(), during which the call is cancelled.
    const cancelled = expect(stuck).rejects.toBeInstanceOf(AppError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    await server.shutdown(100);

    expect(Date.now() - startedAt).toBeLessThan(1_000);
    await cancelled;
    echo.close();
  });
});
