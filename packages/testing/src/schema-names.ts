import { randomSuffix } from './random';

/** Unquoted-safe Postgres identifier: what test schemas and the search_path option can carry as is. */
const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const MAX_IDENTIFIER_LENGTH = 63;
const MAX_PREFIX_LENGTH = 30;

/**
 * `t_<prefix>_<random>`: the `t_` marks schemas made by tests (easy to spot and drop by hand), the
 * prefix says which test made it, the random part keeps parallel tests apart.
 */
export function testSchemaName(prefix?: string): string {
  const label = (prefix ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_PREFIX_LENGTH);
  return label ? `t_${label}_${randomSuffix()}` : `t_${randomSuffix()}`;
}

export function assertPlainIdentifier(name: string): void {
  if (!PLAIN_IDENTIFIER.test(name) || name.length > MAX_IDENTIFIER_LENGTH) {
    throw new Error(
      `"${name}" is not a plain Postgres identifier (lowercase letters, digits, _; at most 63)`,
    );
  }
}

/** Adds `options=-c search_path=<schema>` so any pg or Prisma client built from the URL alone uses the schema. */
export function withSearchPath(databaseUrl: string, schema: string): string {
  assertPlainIdentifier(schema);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
