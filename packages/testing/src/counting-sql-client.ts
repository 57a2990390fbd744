/** The raw SQL API of a database client (@sika/platform's SqlDatabase and its transactions). */
export interface RawSqlClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

/**
 * `db` as a client that counts the statements sent through it: for a test that shows writes made together
 * (one statement for many callers) on a real database.
 */
export function countingSqlClient(db: RawSqlClient): { client: RawSqlClient; statements: () => number } {
  let statements = 0;
  return {
    client: {
      $queryRaw: <T>(query: TemplateStringsArray, ...values: unknown[]) => {
        statements += 1;
        return db.$queryRaw<T>(query, ...values);
      },
      $executeRaw: (query: TemplateStringsArray, ...values: unknown[]) => {
        statements += 1;
        return db.$executeRaw(query, ...values);
      },
    },
    statements: () => statements,
  };
}
