import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import { credentials, Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import {
  AppError,
  createGrpcClient,
  createLogger,
  grpcTls,
  grpcTlsEnv,
  loadConfig,
  startGrpcServer,
  unaryHandler,
} from '@sika/platform';
import type { GrpcCallers, GrpcTls, RunningGrpcServer, ConfigError } from '@sika/platform';
import { createCertificateAuthority, grpcHealthStatus, testIdentity } from '@sika/testing';
import { z } from 'zod';

import { ECHO_SERVICE_NAME, EchoServiceClient, EchoServiceService } from './fixtures/echo-service';
import type { EchoRequest, EchoResponse, EchoServiceServer } from './fixtures/echo-service';

/** Mutual TLS and the per-method allowlist of callers, on a real server and real clients. */
const logLines: Record<string, unknown>[] = [];
const logger = createLogger({
  service: 'grpc-tls-test',
  level: 'debug',
  destination: new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }),
});

let handled = 0;
const implementation = {
  echo: unaryHandler(async (request: EchoRequest): Promise<EchoResponse> => {
    handled += 1;
    return { text: request.text, requestId: '', deadlineSet: true };
  }),
  failWithDomainError: unaryHandler(async (): Promise<EchoResponse> => {
    handled += 1;
    throw new AppError('payment_already_final', 'The payment is already final.');
  }),
  failWithPlainError: unaryHandler(async (): Promise<EchoResponse> => {
    handled += 1;
    throw new Error('boom');
  }),
} satisfies EchoServiceServer;

const ECHO_CALLERS = {
  echo: ['payments', 'cli'],
  failWithDomainError: ['payments'],
  failWithPlainError: ['payments'],
} satisfies GrpcCallers<EchoServiceServer>;

let server: RunningGrpcServer;
let address: string;

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ definition: EchoServiceService, implementation, callers: ECHO_CALLERS }],
    tls: (await testIdentity('ledger')).tls,
    logger,
  });
  address = `127.0.0.1:${server.port}`;
});

afterAll(() => server.shutdown(1_000));

beforeEach(() => {
  handled = 0;
  logLines.length = 0;
});

async function echoAs(tls: GrpcTls): Promise<EchoResponse> {
  const client = createGrpcClient(EchoServiceClient, address, { deadlineMs: 5_000, tls });
  try {
    return await client.echo({ text: 'hello' });
  } finally {
    client.close();
  }
}

describe('the handshake', () => {
  it('lets a caller with a certificate of the CA through', async () => {
    await expect(echoAs((await testIdentity('payments')).tls)).resolves.toMatchObject({ text: 'hello' });
    expect(handled).toBe(1);
  });

  it('refuses a caller without a certificate before any handler runs', async () => {
    const { ca } = (await testIdentity('payments')).tls;
    const client = new EchoServiceClient(address, credentials.createSsl(ca));
    const failure = await new Promise<ServiceError | null>((resolve) =>
      client.echo({ text: 'hello' }, new Metadata(), { deadline: Date.now() + 5_000 }, (error) =>
        resolve(error),
      ),
    );
    client.close();

    expect(failure?.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(handled).toBe(0);
    expect(logLines.filter((line) => line.msg === 'grpc call')).toEqual([]);
  });

  it('refuses a caller whose certificate another CA signed, even naming an allowed identity', async () => {
    const ownCa = (await testIdentity('payments')).tls.ca;
    const otherCa = await createCertificateAuthority('Another CA');
    const impostor = await otherCa.issue('payments');

    await expect(
      echoAs({
        ca: ownCa,
        certificate: Buffer.from(impostor.certificatePem),
        privateKey: Buffer.from(impostor.privateKeyPem),
      }),
    ).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(handled).toBe(0);
  });

  it('refuses a plaintext caller', async () => {
    const client = new EchoServiceClient(address, credentials.createInsecure());
    const failure = await new Promise<ServiceError | null>((resolve) =>
      client.echo({ text: 'hello' }, new Metadata(), { deadline: Date.now() + 5_000 }, (error) =>
        resolve(error),
      ),
    );
    client.close();

    expect(failure?.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(handled).toBe(0);
  });

  it('answers grpc.health.v1 to any holder of a certificate of the CA', async () => {
    expect(await grpcHealthStatus(address, ECHO_SERVICE_NAME)).toBe('SERVING');
  });
});

describe('the allowlist of callers', () => {
  it('runs the method for a caller it names, and logs who called', async () => {
    await expect(echoAs((await testIdentity('cli')).tls)).resolves.toMatchObject({ text: 'hello' });

    expect(logLines.find((line) => line.msg === 'grpc call')).toMatchObject({
      caller: 'cli',
      grpc_code: 'OK',
    });
  });

  it('answers PERMISSION_DENIED to a valid certificate it does not name, before the handler runs', async () => {
    const gateway = createGrpcClient(EchoServiceClient, address, {
      deadlineMs: 5_000,
      tls: (await testIdentity('gateway')).tls,
    });
    const refusal = await gateway.failWithDomainError({ text: 'x' }).catch((error: unknown) => error);
    gateway.close();

    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'caller_not_allowed' });
    expect(((refusal as AppError).cause as ServiceError).code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(handled).toBe(0);
    expect(logLines.find((line) => line.msg === 'grpc call')).toMatchObject({
      level: 'warn',
      caller: 'gateway',
      grpc_method: '/sika.test.v1.EchoService/FailWithDomainError',
      grpc_code: 'PERMISSION_DENIED',
      error_code: 'caller_not_allowed',
    });
  });

  it('refuses to start a server with a method whose callers are not declared', async () => {
    const { echo: _echo, ...incomplete } = ECHO_CALLERS;

    await expect(
      startGrpcServer({
        host: '127.0.0.1',
        port: 0,
        services: [{ definition: EchoServiceService, implementation, callers: incomplete }],
        tls: (await testIdentity('ledger')).tls,
        logger,
      }),
    ).rejects.toThrow('no callers declared for /sika.test.v1.EchoService/Echo');
  });
});

describe('GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE', () => {
  const schema = z.object(grpcTlsEnv);
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'grpc-tls-config-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  function file(name: string, contents: string): string {
    const written = path.join(directory, name);
    writeFileSync(written, contents);
    return written;
  }

  it('are read once at start into the certificate, key and CA', async () => {
    const { env, tls } = await testIdentity('payments');

    expect(grpcTls(loadConfig(schema, env))).toEqual(tls);
  });

  it('name each missing variable, and each file that is unreadable or not PEM, without its contents', async () => {
    const { env } = await testIdentity('payments');
    const problemsOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };

    expect(problemsOf(() => loadConfig(schema, { GRPC_TLS_CERT_FILE: env.GRPC_TLS_CERT_FILE }))).toEqual([
      { variable: 'GRPC_TLS_KEY_FILE', problem: 'is missing' },
      { variable: 'GRPC_TLS_CA_FILE', problem: 'is missing' },
    ]);
    const unreadable = path.join(directory, 'absent.crt');
    expect(
      problemsOf(() =>
        grpcTls({
          GRPC_TLS_CERT_FILE: unreadable,
          GRPC_TLS_KEY_FILE: file('not-a-key.pem', 'hello'),
          GRPC_TLS_CA_FILE: env.GRPC_TLS_CA_FILE,
        }),
      ),
    ).toEqual([
      { variable: 'GRPC_TLS_CERT_FILE', problem: `is invalid: cannot read the file ${unreadable}` },
      {
        variable: 'GRPC_TLS_KEY_FILE',
        problem: `is invalid: ${path.join(directory, 'not-a-key.pem')} holds no PEM private key`,
      },
    ]);
  });

  it('refuse a key that is not the certificate’s', async () => {
    const payments = await testIdentity('payments');
    const ledger = await testIdentity('ledger');

    expect(() => grpcTls({ ...payments.env, GRPC_TLS_KEY_FILE: ledger.env.GRPC_TLS_KEY_FILE })).toThrow(
      'GRPC_TLS_KEY_FILE is invalid: not the private key of the GRPC_TLS_CERT_FILE certificate',
    );
  });

  it('refuse a certificate that names no Sika identity', async () => {
    const ca = await createCertificateAuthority('Sika test CA');
    const stranger = await ca.issue('printer');

    expect(() =>
      grpcTls({
        GRPC_TLS_CERT_FILE: file('printer.crt', stranger.certificatePem),
        GRPC_TLS_KEY_FILE: file('printer.key', stranger.privateKeyPem),
        GRPC_TLS_CA_FILE: file('ca.crt', ca.certificatePem),
      }),
    ).toThrow('GRPC_TLS_CERT_FILE is invalid: it names no Sika identity');
  });
});
