import { createPrismaClient, databaseReadiness } from './prisma';

describe('databaseReadiness', () => {
  it('is the `database` check, a SELECT 1 through the client', async () => {
    const queries: string[] = [];
    const readiness = databaseReadiness({
      $queryRaw: async (query) => {
        queries.push(query.join('?'));
        return [{ '?column?': 1 }];
      },
    });

    await readiness.check();

    expect(readiness.name).toBe('database');
    expect(queries).toEqual(['SELECT 1']);
  });

  it('fails when the query fails, so the probe reports the database', async () => {
    const readiness = databaseReadiness({
      $queryRaw: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    });

    await expect(readiness.check()).rejects.toThrow('ECONNREFUSED');
  });
});

describe('createPrismaClient', () => {
  it("asks for Prisma's minimal error format, which leaves the calling source lines out of messages", () => {
    class OptionsHolder {
      constructor(readonly options: { errorFormat: string }) {}
    }

    const client = createPrismaClient(OptionsHolder, {
      url: 'postgresql://127.0.0.1/sika',
      schema: 'payments',
    });

    expect(client.options.errorFormat).toBe('minimal');
  });
});
