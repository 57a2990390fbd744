import { createPrismaClient, SqlDatabase } from '@sika/platform';
import { PrismaClient } from '../generated/prisma/client';
import type { Prisma } from '../generated/prisma/client';

export type Database = PrismaClient;
/** The client an interactive transaction's callback receives. */
export type Tx = Prisma.TransactionClient;

export function createDatabase(url: string, schema: string): Database {
  return createPrismaClient(PrismaClient, { url, schema });
}

/**
 * Raw SQL on `pg` for the outbox relay alone: it polls four times a second, and through Prisma each idle
 * round (BEGIN, the claim, COMMIT) made payouts the busiest service of an idle stack (22 ms of CPU a second,
 * its garbage a third of it). One connection, two when a round and a wake overlap.
 */
export function createRelayDatabase(url: string, schema: string): SqlDatabase {
  return new SqlDatabase({ url, schema, maxConnections: 2 });
}

/** A day (`YYYY-MM-DD`) as a `date` column holds it: Prisma reads and writes dates as midnight UTC. */
export const dayToDate = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
