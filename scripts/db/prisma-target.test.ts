import path from 'node:path';
import { resolvePrismaTarget } from './prisma-target';

const PSP = path.join(__dirname, 'test/fixtures/services/psp-connector');

describe('resolvePrismaTarget', () => {
  it('takes the service in the current directory when no variable is set', () => {
    expect(resolvePrismaTarget({}, PSP)).toEqual({
      prismaSchemaPath: path.join(PSP, 'prisma/schema'),
      migrationsDir: path.join(PSP, 'prisma/migrations'),
      dbSchema: 'psp',
    });
  });

  it('lets SIKA_* variables override, relative to the current directory', () => {
    const env = { SIKA_PRISMA_SCHEMA: 'other/prisma/schema.prisma', SIKA_DB_SCHEMA: 'other' };
    expect(resolvePrismaTarget(env, '/repo')).toEqual({
      prismaSchemaPath: '/repo/other/prisma/schema.prisma',
      migrationsDir: '/repo/other/prisma/migrations',
      dbSchema: 'other',
    });
  });

  it('leaves everything unset outside a service, so prisma generate and --help still work', () => {
    expect(resolvePrismaTarget({}, __dirname)).toEqual({
      prismaSchemaPath: undefined,
      migrationsDir: undefined,
      dbSchema: undefined,
    });
  });
});
