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
      ownerRole: 'sika_ledger_owner',
      runtimeRole: 'sika_ledger',
      prismaSchemaPath: path.join(SERVICES_ROOT, 'ledger/prisma/schema.prisma'),
      migrationsDir: path.join(SERVICES_ROOT, 'ledger/prisma/migrations'),
    });
    expect(psp).toMatchObject({
      ownerRole: 'sika_psp_owner',
      runtimeRole: 'sika_psp',
      prismaSchemaPath: path.join(SERVICES_ROOT, 'psp-connector/prisma/schema'),
      migrationsDir: path.join(SERVICES_ROOT, 'psp-connector/prisma/migrations'),
    });
  });

  it('applies the role prefix', () => {
    expect(listServices(SERVICES_ROOT, 't1_')[1]?.database).toMatchObject({
      ownerRole: 't1_ledger_owner',
      runtimeRole: 't1_ledger',
    });
  });
});

describe('rolePassword', () => {
  const ledger = listServices(SERVICES_ROOT)[1]?.database;
  if (!ledger) throw new Error('fixture missing');
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  const remote = 'postgres://admin:pw@db.internal:5432/postgres';

  it('reads SIKA_DB_OWNER_PASSWORD_<SCHEMA> and SIKA_DB_PASSWORD_<SCHEMA>', () => {
    const env = { SIKA_DB_OWNER_PASSWORD_LEDGER: 'own3r', SIKA_DB_PASSWORD_LEDGER: 'runt1me' };
    expect(rolePassword(ledger, 'owner', remote, env)).toBe('own3r');
    expect(rolePassword(ledger, 'runtime', remote, env)).toBe('runt1me');
  });

  it.each([
    'postgres://postgres@127.0.0.1:5432/postgres',
    'postgres://postgres@localhost/postgres',
    'postgres://postgres@[::1]:5432/postgres',
    'postgres://postgres@127.0.0.1/postgres?host=/var/run/postgresql',
  ])('defaults to the role name on a local server: %s', (url) => {
    expect(rolePassword(ledger, 'owner', url, {})).toBe('sika_ledger_owner');
    expect(rolePassword(ledger, 'runtime', url, {})).toBe('sika_ledger');
  });

  it('refuses the default on any other server, naming the variable to set', () => {
    expect(() => rolePassword(ledger, 'owner', remote, {})).toThrow(
      'set SIKA_DB_OWNER_PASSWORD_LEDGER: the password of sika_ledger_owner may be its own name only on a ' +
        'local server (localhost, 127.0.0.1, ::1 or a Unix socket), not on db.internal:5432/postgres',
    );
    expect(() => rolePassword(ledger, 'runtime', remote, { SIKA_DB_PASSWORD_LEDGER: '' })).toThrow(
      /^set SIKA_DB_PASSWORD_LEDGER: /,
    );
  });

  it('refuses the role name given explicitly on any other server', () => {
    expect(() => rolePassword(ledger, 'runtime', remote, { SIKA_DB_PASSWORD_LEDGER: 'sika_ledger' })).toThrow(
      /^set SIKA_DB_PASSWORD_LEDGER: /,
    );
    expect(rolePassword(ledger, 'runtime', local, { SIKA_DB_PASSWORD_LEDGER: 'sika_ledger' })).toBe(
      'sika_ledger',
    );
  });
});
