import type { Kysely, KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import type { DB } from '../../src/generated/database';

/**
 * `db` as a client that counts the statements run through it: for a test that shows writes made together (one
 * statement for many callers) on a real database. Kysely hands every result of a statement to its plugins once.
 */
export function countingStatements(db: Kysely<DB>): { client: Kysely<DB>; statements: () => number } {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }): Promise<QueryResult<UnknownRow>> => {
      statements += 1;
      return result;
    },
  };
  return { client: db.withPlugin(counter), statements: () => statements };
}
