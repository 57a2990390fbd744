import { join } from 'node:path';
import { spawnProcess, type SpawnedProcess } from '@sika/testing';

const FIXTURE = join(__dirname, '../fixtures/relay.ts');
/** Lets tsx resolve `@sika/*` to package sources, as jest does, so the child needs no build. */
const TSCONFIG = join(__dirname, '../../../../tsconfig.test.json');

export interface RelayEnv {
  DATABASE_URL: string;
  DB_SCHEMA: string;
  AMQP_URL: string;
  EXCHANGE: string;
  BATCH_SIZE: string;
  STALL_AFTER?: string;
}

/** Starts test/fixtures/relay.ts as its own process and resolves once it relays. */
export function startRelayProcess(name: string, env: RelayEnv): Promise<SpawnedProcess> {
  return spawnProcess({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE],
    env: { ...env, TSX_TSCONFIG_PATH: TSCONFIG },
    readyWhen: (line) => line === 'ready',
  });
}

/** Message ids whose publish the relay reported confirmed. */
export function confirmedBy(relay: SpawnedProcess): string[] {
  return relay
    .output()
    .split('\n')
    .map((line) => /^\[[^\]]+\] confirmed (\S+)$/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
}
