import { randomBytes } from 'node:crypto';
import { testIdentity, type GrpcTlsEnv } from '@sika/testing';

import { configSchema } from './config';

const BASE = {
  DATABASE_URL: 'postgres://sika_psp@127.0.0.1:5432/sika',
  AMQP_URL: 'amqp://127.0.0.1:5672',
  PSP_CALLBACK_PUBLIC_URL: 'https://callbacks.sika.example',
  PISPI_TEST_BASE_URL: 'http://127.0.0.1:8090',
  PISPI_TEST_CLIENT_ID: 'sika',
  PISPI_TEST_CLIENT_SECRET: 'secret',
  PISPI_TEST_PAYEE_ALIAS: 'sika-test',
  CALLBACK_SECRET_KEY: randomBytes(32).toString('base64'),
};
const LIVE = {
  PISPI_LIVE_BASE_URL: 'https://api.participant.example/piz/v1',
  PISPI_LIVE_CLIENT_ID: 'sika',
  PISPI_LIVE_CLIENT_SECRET: 'secret',
  PISPI_LIVE_PAYEE_ALIAS: 'sika-live',
};
const LIVE_TLS = {
  PISPI_LIVE_TLS_CERT_FILE: '/etc/sika/pispi/live/tls.crt',
  PISPI_LIVE_TLS_KEY_FILE: '/etc/sika/pispi/live/tls.key',
  PISPI_LIVE_TLS_CA_FILE: '/etc/sika/pispi/live/ca.crt',
};

/** The gRPC identity's files, which @sika/platform reads and checks (these rules do not involve them). */
let grpcTls: GrpcTlsEnv;
beforeAll(async () => {
  grpcTls = (await testIdentity('psp-connector')).env;
});

/** The variables refused, each with its message. */
const problems = (env: Record<string, string>) =>
  configSchema
    .safeParse({ ...grpcTls, ...env })
    .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('configSchema', () => {
  it('takes live mode with a participant over mutual TLS', () => {
    expect(problems({ ...BASE, ...LIVE, ...LIVE_TLS })).toEqual([]);
  });

  it('refuses live mode with a real participant but without the TLS files, or over http', () => {
    expect(problems({ ...BASE, ...LIVE })).toEqual([
      'PISPI_LIVE_TLS_CERT_FILE: required in live mode: the participant requires mutual TLS',
      'PISPI_LIVE_TLS_KEY_FILE: required in live mode: the participant requires mutual TLS',
      'PISPI_LIVE_TLS_CA_FILE: required in live mode: the participant requires mutual TLS',
    ]);
    expect(
      problems({
        ...BASE,
        ...LIVE,
        ...LIVE_TLS,
        PISPI_LIVE_TOKEN_URL: 'http://auth.participant.example/token',
      }),
    ).toEqual(['PISPI_LIVE_TOKEN_URL: expected an https:// URL in live mode']);
  });

  it('lets live mode reach a participant on loopback without TLS: the local stack’s simulator', () => {
    expect(problems({ ...BASE, ...LIVE, PISPI_LIVE_BASE_URL: 'http://127.0.0.1:8090' })).toEqual([]);
  });

  it('wants a mode’s three TLS files together, as absolute paths', () => {
    expect(
      problems({ ...BASE, PISPI_TEST_TLS_CERT_FILE: '/certs/tls.crt', PISPI_TEST_TLS_KEY_FILE: 'tls.key' }),
    ).toEqual([
      'PISPI_TEST_TLS_KEY_FILE: expected an absolute path',
      'PISPI_TEST_TLS_CA_FILE: required with the other test TLS files',
    ]);
  });

  it('takes live TLS files alone as the start of a live configuration, and asks for the rest', () => {
    expect(problems({ ...BASE, ...LIVE_TLS })).toEqual([
      'PISPI_LIVE_BASE_URL: required once live mode is configured',
      'PISPI_LIVE_CLIENT_ID: required once live mode is configured',
      'PISPI_LIVE_CLIENT_SECRET: required once live mode is configured',
      'PISPI_LIVE_PAYEE_ALIAS: required once live mode is configured',
    ]);
  });

  it('requires the key that seals callback secrets', () => {
    const { CALLBACK_SECRET_KEY: _key, ...withoutKey } = BASE;
    expect(problems(withoutKey)).toEqual([expect.stringMatching(/^CALLBACK_SECRET_KEY: /)]);
  });

  it('bounds the pool to a participant at 64 connections unless told, and refuses a bound below one', () => {
    expect(configSchema.parse({ ...grpcTls, ...BASE }).PISPI_MAX_CONNECTIONS).toBe(64);
    expect(
      configSchema.parse({ ...grpcTls, ...BASE, PISPI_MAX_CONNECTIONS: '8' }).PISPI_MAX_CONNECTIONS,
    ).toBe(8);
    expect(problems({ ...BASE, PISPI_MAX_CONNECTIONS: '0' })).toEqual([
      expect.stringMatching(/^PISPI_MAX_CONNECTIONS: /),
    ]);
  });
});
