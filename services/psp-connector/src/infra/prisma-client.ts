export { PrismaClient, Prisma } from '../generated/prisma/client';
export type { PrismaClient as PspPrismaClient } from '../generated/prisma/client';
