import { createPrismaClient } from '@sika/platform';
import { PrismaClient } from '../generated/prisma/client';

export type Database = PrismaClient;

export function createDatabase(url: string, schema: string): Database {
  return createPrismaClient(PrismaClient, { url, schema });
}
