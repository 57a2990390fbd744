import { PrismaPg } from '@prisma/adapter-pg';

export interface PrismaConnectionOptions {
  url: string;
  /** The service's own Postgres schema: queries and migrations stay inside it. */
  schema: string;
  /** Pool size per process; pg's default (10) when omitted. */
  maxConnections?: number;
}

/** Unquoted Postgres identifier: the name also goes into the `search_path` connection option. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A Prisma client (generator `prisma-client`, JS engine) on the pg driver adapter, bound to one schema:
 * `search_path` for raw SQL and the adapter's `schema` for generated queries.
 */
export function createPrismaClient<Client>(
  PrismaClientConstructor: new (options: { adapter: PrismaPg }) => Client,
  { url, schema, maxConnections }: PrismaConnectionOptions,
): Client {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid Postgres schema name: ${schema}`);
  const adapter = new PrismaPg(
    {
      connectionString: url,
      options: `-c search_path=${schema}`,
      ...(maxConnections === undefined ? {} : { max: maxConnections }),
    },
    { schema },
  );
  return new PrismaClientConstructor({ adapter });
}
