import { z } from 'zod';

import { ConfigError, envVar, loadConfig, parseDurationMs } from './config';

const schema = z.object({
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  GRPC_PORT: envVar.port(),
  LOG_LEVEL: envVar.logLevel().default('info'),
  SIMULATOR_ENABLED: envVar.boolean().default(false),
  EXPIRY_POLL_INTERVAL: envVar.durationMs().default(1_000),
});

function problemsOf(env: NodeJS.ProcessEnv): ConfigError['problems'] {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('returns typed values, with defaults', () => {
    const config = loadConfig(schema, {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sika',
      GRPC_PORT: '8051',
      SIMULATOR_ENABLED: 'yes',
      EXPIRY_POLL_INTERVAL: '250ms',
    });

    expect(config).toEqual({
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sika',
      GRPC_PORT: 8051,
      LOG_LEVEL: 'info',
      SIMULATOR_ENABLED: true,
      EXPIRY_POLL_INTERVAL: 250,
    });
  });

  it('names every missing and invalid variable at once, without echoing values', () => {
    const problems = problemsOf({
      GRPC_PORT: '70000',
      LOG_LEVEL: 'loud',
      SIMULATOR_ENABLED: 'maybe',
      EXPIRY_POLL_INTERVAL: 'soon',
    });

    expect(problems.map(({ variable }) => variable)).toEqual([
      'DATABASE_URL',
      'GRPC_PORT',
      'LOG_LEVEL',
      'SIMULATOR_ENABLED',
      'EXPIRY_POLL_INTERVAL',
    ]);
    expect(problems[0]).toEqual({ variable: 'DATABASE_URL', problem: 'is missing' });
    for (const { problem } of problems.slice(1)) expect(problem).toMatch(/^is invalid: /);
    expect(JSON.stringify(problems)).not.toMatch(/70000|loud|maybe|soon/);
  });

  it('counts an empty variable as missing', () => {
    expect(problemsOf({ DATABASE_URL: '', GRPC_PORT: '1' })).toEqual([
      { variable: 'DATABASE_URL', problem: 'is missing' },
    ]);
  });

  it('rejects a URL of the wrong protocol', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://db/sika', GRPC_PORT: '1' })).toEqual([
      {
        variable: 'DATABASE_URL',
        problem: 'is invalid: expected a URL starting with postgres:// or postgresql://',
      },
    ]);
  });

  it('accepts a Postgres schema name only as a plain lowercase identifier', () => {
    const schemaOnly = z.object({ DATABASE_SCHEMA: envVar.postgresSchema().default('payments') });

    expect(loadConfig(schemaOnly, {}).DATABASE_SCHEMA).toBe('payments');
    expect(loadConfig(schemaOnly, { DATABASE_SCHEMA: 'payments_t_1a2b' }).DATABASE_SCHEMA).toBe(
      'payments_t_1a2b',
    );
    for (const invalid of ['Payments', '1payments', 'payments -c statement_timeout=1', 'a'.repeat(64)]) {
      expect(() => loadConfig(schemaOnly, { DATABASE_SCHEMA: invalid })).toThrow(
        'DATABASE_SCHEMA is invalid: expected a lowercase Postgres identifier (a-z, 0-9, _)',
      );
    }
  });

  it('puts every problem in the error message too', () => {
    expect(() => loadConfig(schema, {})).toThrow(
      'Invalid configuration: DATABASE_URL is missing; GRPC_PORT is missing',
    );
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['1500', 1_500],
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
  ])('reads %j as %d ms', (text, milliseconds) => {
    expect(parseDurationMs(text)).toBe(milliseconds);
  });

  it.each(['', '5 minutes', '-1s', '1.5s', 's'])('rejects %j', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});

describe('envVar.grpcAddress', () => {
  const address = envVar.grpcAddress();

  it.each(['ledger:8054', '127.0.0.1:8054', 'sika-ledger.sika.svc.cluster.local:8054', '[::1]:8054'])(
    'accepts %s',
    (value) => {
      expect(address.safeParse(value).success).toBe(true);
    },
  );

  it.each(['ledger', ':8054', 'ledger:', 'ledger:0', 'ledger:65536', '::1:8054', 'led ger:8054', '-x:1'])(
    'refuses %s',
    (value) => {
      expect(address.safeParse(value).success).toBe(false);
    },
  );
});
