import { createPrismaClient } from '@sika/platform';
import { PrismaClient } from '../generated/prisma/client';
import type { Prisma } from '../generated/prisma/client';

/** The service's own Postgres schema; every query and migration stays inside it. */
export const DB_SCHEMA = 'payments';

export type Database = PrismaClient;
/** The client an interactive transaction's callback receives. */
export type Tx = Prisma.TransactionClient;
/** Reads work on the pool or inside a transaction alike. */
export type Reader = Database | Tx;

export function createDatabase(url: string, schema = DB_SCHEMA): Database {
  return createPrismaClient(PrismaClient, { url, schema });
}
