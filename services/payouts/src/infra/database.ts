import { createPrismaClient } from '@sika/platform';
import { PrismaClient } from '../generated/prisma/client';
import type { Prisma } from '../generated/prisma/client';

export type Database = PrismaClient;
/** The client an interactive transaction's callback receives. */
export type Tx = Prisma.TransactionClient;

export function createDatabase(url: string, schema: string): Database {
  return createPrismaClient(PrismaClient, { url, schema });
}

/** A day (`YYYY-MM-DD`) as a `date` column holds it: Prisma reads and writes dates as midnight UTC. */
export const dayToDate = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
