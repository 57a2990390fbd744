import { join } from 'node:path';

import { infraFromEnv } from '../infra';

const SERVICES_ROOT = join(__dirname, 'fixtures', 'services');
const SECRETS = { apiKeyPepper: 'pepper', webhookSecretKey: 'key', simulatorClientSecret: 'secret' };

describe('stack infrastructure URLs', () => {
  it('logs each service in as the role db:migrate made for its schema', () => {
    const infra = infraFromEnv({}, SERVICES_ROOT, SECRETS);

    expect(infra.databaseUrlFor('payments')).toBe(
      'postgres://sika_payments:sika_payments@127.0.0.1:5432/sika',
    );
    expect(infra.databaseUrlFor('psp-connector')).toBe('postgres://sika_psp:sika_psp@127.0.0.1:5432/sika');
    expect(infra.amqpUrl).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(infra.redisUrl).toBe('redis://127.0.0.1:6379');
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
