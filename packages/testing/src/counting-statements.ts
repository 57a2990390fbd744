import type { Kysely } from 'kysely';

/**
 * `db` as a client that counts the statements sent through it: for a test that shows writes made together
 * (one statement for many callers) on a real database. Counted by their results: Kysely hands a plugin each
 * subquery too, but only a statement sent has a result.
 */
export function countingStatements<DB>(db: Kysely<DB>): { client: Kysely<DB>; statements: () => number } {
  let statements = 0;
  const client = db.withPlugin({
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements += 1;
      return result;
    },
  });
  return { client, statements: () => statements };
}
