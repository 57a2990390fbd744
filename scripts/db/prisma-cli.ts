import { spawn } from 'node:child_process';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const PRISMA_CONFIG = path.join(REPO_ROOT, 'prisma.config.ts');

export interface PrismaRun {
  ok: boolean;
  /** stdout and stderr interleaved, for showing when something failed. */
  output: string;
}

/** What a Sika Prisma command works on; becomes the SIKA_* variables read by prisma.config.ts. */
export interface PrismaCommandTarget {
  databaseUrl: string;
  dbSchema: string;
  prismaSchemaPath: string;
  migrationsDir: string;
}

/**
 * `prisma migrate deploy` on Prisma's JS engine (6.19) leaves its 10 s advisory-lock timeout armed after
 * the lock was taken, so the CLI idles 10 s after it has finished. Once it prints its verdict everything is
 * committed, so the process is ended there rather than waited for.
 */
const DEPLOY_VERDICT = /All migrations have been successfully applied\.|No pending migrations to apply\./;

export function runPrisma(args: readonly string[], target: PrismaCommandTarget): Promise<PrismaRun> {
  const prismaCli = require.resolve('prisma/build/index.js');
  const child = spawn(process.execPath, [prismaCli, ...args, '--config', PRISMA_CONFIG], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: target.databaseUrl,
      SIKA_DB_SCHEMA: target.dbSchema,
      SIKA_PRISMA_SCHEMA: target.prismaSchemaPath,
      SIKA_PRISMA_MIGRATIONS: target.migrationsDir,
      // The JS engine never loads the native query engine; this keeps the CLI from looking for one.
      PRISMA_QUERY_ENGINE_LIBRARY: '/dev/null',
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let sawVerdict = false;
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    if (!sawVerdict && DEPLOY_VERDICT.test(output)) {
      sawVerdict = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ ok: code === 0 || sawVerdict, output }));
  });
}
