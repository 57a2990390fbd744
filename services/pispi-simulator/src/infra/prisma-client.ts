export { PrismaClient, Prisma } from '../generated/prisma/client';
export type { PrismaClient as SimulatorPrismaClient } from '../generated/prisma/client';
