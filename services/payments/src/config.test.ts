import { ConfigError, loadConfig } from '@sika/platform';
import { testIdentity, type GrpcTlsEnv } from '@sika/testing';
import { configSchema } from './config';

const WITHOUT_TLS = {
  GRPC_PORT: '8052',
  METRICS_PORT: '9104',
  DATABASE_URL: 'postgres://sika_payments:sika_payments@127.0.0.1:5432/sika',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  PSP_CONNECTOR_GRPC_ADDRESS: '127.0.0.1:8053',
  MERCHANTS_GRPC_ADDRESS: '[::1]:8051',
  CHECKOUT_BASE_URL: 'http://127.0.0.1:8081',
  CHECKOUT_TOKEN_KEY: 'a-local-checkout-token-key-of-32-characters',
  PAYER_ALIAS_KEY: '0f'.repeat(32),
};
let ENV: typeof WITHOUT_TLS & GrpcTlsEnv;

beforeAll(async () => {
  ENV = { ...WITHOUT_TLS, ...(await testIdentity('payments')).env };
});

describe('configSchema', () => {
  it('reads the environment, with defaults for host, log level and poll intervals', () => {
    expect(loadConfig(configSchema, ENV)).toMatchObject({
      HOST: '127.0.0.1',
      GRPC_PORT: 8052,
      LOG_LEVEL: 'info',
      EXPIRY_POLL_INTERVAL: 1_000,
      ATTEMPT_SWEEP_INTERVAL: 5_000,
      PAYER_ALIAS_PREVIOUS_KEYS: [],
      PAYER_ALIAS_RETENTION: 30 * 24 * 3_600_000,
    });
    expect(loadConfig(configSchema, { ...ENV, EXPIRY_POLL_INTERVAL: '250ms' }).EXPIRY_POLL_INTERVAL).toBe(
      250,
    );
  });

  it('names every missing or invalid variable at once', () => {
    let thrown: unknown;
    try {
      loadConfig(configSchema, {
        ...ENV,
        DATABASE_URL: undefined,
        PSP_CONNECTOR_GRPC_ADDRESS: 'no-port',
        CHECKOUT_BASE_URL: '',
        CHECKOUT_TOKEN_KEY: 'too-short',
        PAYER_ALIAS_KEY: 'not-32-bytes',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((problem) => problem.variable).sort()).toEqual([
      'CHECKOUT_BASE_URL',
      'CHECKOUT_TOKEN_KEY',
      'DATABASE_URL',
      'PAYER_ALIAS_KEY',
      'PSP_CONNECTOR_GRPC_ADDRESS',
    ]);
  });
});
