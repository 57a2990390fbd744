import { PrismaPg } from '@prisma/adapter-pg';

import { POSTGRES_SCHEMA_NAME } from './config';
import { KEPT_CONNECTIONS } from './database';

export interface PrismaConnectionOptions {
  url: string;
  /** The service's own Postgres schema: queries and migrations stay inside it. */
  schema: string;
  /** Pool size per process; pg's default (10) when omitted. Connections are opened as needed, then kept. */
  maxConnections?: number;
}

/**
 * Prisma's `minimal` error format: the default (`colorless` off a terminal) prints the calling source lines
 * into an error's message, literal values included. The arguments a validation error renders remain: the
 * logger cuts Prisma messages to their last paragraph (summarizeError).
 */
export const PRISMA_ERROR_FORMAT = 'minimal';

/**
 * A Prisma client (generator `prisma-client`, JS engine) on the pg driver adapter, bound to one schema:
 * `search_path` for raw SQL and the adapter's `schema` for generated queries.
 */
export function createPrismaClient<Client>(
  PrismaClientConstructor: new (options: {
    adapter: PrismaPg;
    errorFormat: typeof PRISMA_ERROR_FORMAT;
  }) => Client,
  { url, schema, maxConnections }: PrismaConnectionOptions,
): Client {
  if (!POSTGRES_SCHEMA_NAME.test(schema)) throw new Error(`invalid Postgres schema name: ${schema}`);
  const adapter = new PrismaPg(
    {
      connectionString: url,
      options: `-c search_path=${schema}`,
      ...KEPT_CONNECTIONS,
      ...(maxConnections === undefined ? {} : { max: maxConnections }),
    },
    { schema },
  );
  return new PrismaClientConstructor({ adapter, errorFormat: PRISMA_ERROR_FORMAT });
}
