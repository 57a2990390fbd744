import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
} from 'kysely';

import { PreparedQuery } from './prepared-query';

interface Tables {
  movements: { id: string; amount: bigint; at: Date };
}

const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** An executor that keeps what it was asked to run. */
function recording() {
  const ran: CompiledQuery[] = [];
  return {
    ran,
    executeQuery: async <R>(query: CompiledQuery<R>) => {
      ran.push(query);
      return { rows: [] as R[] };
    },
  };
}

describe('PreparedQuery', () => {
  it('builds its statement once and binds each run its own values, constants kept in place', async () => {
    let builds = 0;
    const query = new PreparedQuery<{ ids: string[]; since: Date; limit: number }, { id: string }>(
      (param) => {
        builds += 1;
        return db
          .selectFrom('movements')
          .select('id')
          .where('id', '=', sql<string>`any(${param('ids')}::text[])`)
          .where('amount', '>', 0n)
          .where('at', '>', param('since'))
          .orderBy('at')
          .limit(param('limit'));
      },
    );
    const executor = recording();
    const first = new Date('2026-11-29T10:00:00Z');
    const second = new Date('2026-11-29T11:00:00Z');

    await query.execute(executor, { ids: ['mv_1'], since: first, limit: 5 });
    await query.execute(executor, { ids: ['mv_2', 'mv_3'], since: second, limit: 7 });

    expect(builds).toBe(1);
    expect(executor.ran.map((run) => run.sql)).toEqual([executor.ran[0]?.sql, executor.ran[0]?.sql]);
    expect(executor.ran.map((run) => run.parameters)).toEqual([
      [['mv_1'], 0n, first, 5],
      [['mv_2', 'mv_3'], 0n, second, 7],
    ]);
  });

  it('takes values given as objects of arrays, each array a parameter of its own', async () => {
    const query = new PreparedQuery<{ added: { ids: string[]; amounts: bigint[] } }, { id: string }>(
      (_param, values) =>
        db
          .selectFrom(
            sql<{
              id: string;
              amount: bigint;
            }>`unnest(${values.added.ids}::text[], ${values.added.amounts}::bigint[])`.as<'n'>(
              sql`n (id, amount)`,
            ),
          )
          .select('n.id'),
    );
    const executor = recording();

    await query.execute(executor, { added: { ids: ['mv_1', 'mv_2'], amounts: [10n, 20n] } });

    expect(executor.ran[0]?.parameters).toEqual([
      ['mv_1', 'mv_2'],
      [10n, 20n],
    ]);
  });
});
