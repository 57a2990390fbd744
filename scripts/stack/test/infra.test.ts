import { join } from 'node:path';

import { infraFromEnv, localBroker } from '../infra';

const SERVICES_ROOT = join(__dirname, 'fixtures', 'services');
const SECRETS = {
  apiKeyPepper: 'pepper',
  webhookSecretKey: 'key',
  payerAliasKey: 'alias-key',
  simulatorClientSecret: 'secret',
  brokerPasswordKey: 'broker',
  callbackSecretKey: 'callback',
  checkoutTokenKey: 'checkout',
};

describe('stack infrastructure URLs', () => {
  it('logs each service in as the runtime role db:migrate made for its schema', () => {
    const infra = infraFromEnv({}, SERVICES_ROOT, SECRETS);

    expect(infra.databaseUrlFor('payments')).toBe(
      'postgres://sika_payments:sika_payments@127.0.0.1:5432/sika',
    );
    expect(infra.databaseUrlFor('psp-connector')).toBe('postgres://sika_psp:sika_psp@127.0.0.1:5432/sika');
    expect(infra.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('reaches Postgres through the Unix socket found for the services, when there is one', () => {
    const infra = infraFromEnv({}, SERVICES_ROOT, SECRETS, '/var/run/postgresql');

    expect(infra.databaseUrlFor('payments')).toBe(
      'postgres://sika_payments:sika_payments@127.0.0.1:5432/sika?host=%2Fvar%2Frun%2Fpostgresql',
    );
  });

  it('follows the same variables as db:migrate', () => {
    const infra = infraFromEnv(
      {
        DATABASE_ADMIN_URL: 'postgres://admin:pw@db.internal:6543/postgres',
        SIKA_DB_NAME: 'sika_dev',
        SIKA_DB_PASSWORD_PSP: 'p@ss',
      },
      SERVICES_ROOT,
      SECRETS,
    );

    expect(infra.databaseUrlFor('psp-connector')).toBe(
      'postgres://sika_psp:p%40ss@db.internal:6543/sika_dev',
    );
    expect(() => infra.databaseUrlFor('payments')).toThrow(/^set SIKA_DB_PASSWORD_PAYMENTS: /);
  });

  it('logs each service in to RabbitMQ as its own user, with a password of its own from the local secrets', () => {
    const broker = localBroker({}, SECRETS);
    const payments = new URL(infraFromEnv({}, SERVICES_ROOT, SECRETS).amqpUrlFor('payments'));
    const payouts = new URL(infraFromEnv({}, SERVICES_ROOT, SECRETS).amqpUrlFor('payouts'));

    expect(payments.host).toBe('127.0.0.1:5672');
    expect(payments.username).toBe('sika-payments');
    expect(payments.password).toMatch(/^[0-9a-f]{64}$/);
    expect(payments.password).toBe(broker.passwordOf('payments'));
    expect(payouts.password).not.toBe(payments.password);
    expect(localBroker({}, { ...SECRETS, brokerPasswordKey: 'other' }).passwordOf('payments')).not.toBe(
      payments.password,
    );
    expect(broker).toMatchObject({ adminUrl: 'amqp://guest:guest@127.0.0.1:5672', vhost: '/' });
  });

  it('provisions the broker users in the vhost of AMQP_URL, on its server', () => {
    const broker = localBroker({ AMQP_URL: 'amqp://admin:pw@mq.internal:5673/sika%2Fdev' }, SECRETS);

    expect(broker.vhost).toBe('sika/dev');
    expect(broker.urlFor('webhook-dispatcher')).toBe(
      `amqp://sika-webhook-dispatcher:${broker.passwordOf('webhook-dispatcher')}@mq.internal:5673/sika%2Fdev`,
    );
  });

  it('hands the local secrets to the services', () => {
    expect(infraFromEnv({}, SERVICES_ROOT, SECRETS).secrets).toBe(SECRETS);
  });

  it('refuses a service that has no database', () => {
    expect(() => infraFromEnv({}, SERVICES_ROOT, SECRETS).databaseUrlFor('gateway')).toThrow(
      /no Prisma schema/,
    );
  });
});
