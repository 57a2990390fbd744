import path from 'node:path';
import { listServices, rolePassword } from './service-databases';

const SERVICES_ROOT = path.join(__dirname, 'test/fixtures/services');

describe('listServices', () => {
  const services = listServices(SERVICES_ROOT);

  it('lists every service folder in name order, with a database only where there is a Prisma schema', () => {
    expect(services.map(({ service, database }) => [service, database?.schema])).toEqual([
      ['gateway', undefined],
      ['ledger', 'ledger'],
      ['psp-connector', 'psp'],
    ]);
  });

  it('finds a single-file schema and a multi-file schema folder, with migrations beside them', () => {
    const [, ledger, psp] = services.map(({ database }) => database);
    expect(ledger).toMatchObject({
      role: 'sika_ledger',
      prismaSchemaPath: path.join(SERVICES_ROOT, 'ledger/prisma/schema.prisma'),
      migrationsDir: path.join(SERVICES_ROOT, 'ledger/prisma/migrations'),
    });
    expect(psp).toMatchObject({
      role: 'sika_psp',
      prismaSchemaPath: path.join(SERVICES_ROOT, 'psp-connector/prisma/schema'),
      migrationsDir: path.join(SERVICES_ROOT, 'psp-connector/prisma/migrations'),
    });
  });

  it('applies the role prefix', () => {
    expect(listServices(SERVICES_ROOT, 't1_')[1]?.database?.role).toBe('t1_ledger');
  });
});

describe('rolePassword', () => {
  const ledger = listServices(SERVICES_ROOT)[1]?.database;

  it('reads SIKA_DB_PASSWORD_<SCHEMA>, else defaults to the role name for local use', () => {
    if (!ledger) throw new Error('fixture missing');
    expect(rolePassword(ledger, { SIKA_DB_PASSWORD_LEDGER: 's3cret' })).toBe('s3cret');
    expect(rolePassword(ledger, {})).toBe('sika_ledger');
  });
});
