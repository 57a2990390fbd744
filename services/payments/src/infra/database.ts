import { createPrismaClient } from '@sika/platform';
import type { Transaction, UnitOfWork } from '../app/ports';
import { PrismaClient } from '../generated/prisma/client';
import type { Prisma } from '../generated/prisma/client';

export type Database = PrismaClient;
/** The client an interactive transaction's callback receives. */
export type Tx = Prisma.TransactionClient;
/** Reads work on the pool or inside a transaction alike. */
export type Reader = Database | Tx;

export function createDatabase(url: string, schema: string): Database {
  return createPrismaClient(PrismaClient, { url, schema });
}

/** The use cases' transactions, on Prisma's interactive transactions. */
export class PrismaUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) => work(tx));
  }

  get reader(): Transaction {
    return this.db;
  }
}
