import path from 'node:path';

import { spawnProcess, type SpawnedProcess } from './process';
import { testIdentity } from './test-pki';

/** From packages/testing/src (or dist): where services/ and tsconfig.test.json are. */
const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const OUTPUT_TAIL_LINES = 50;

export interface ServiceProcessOptions {
  /** Merged over the defaults (see spawnService); undefined removes a variable, e.g. to see a refusal. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Ready once the service logs a line with this `msg`; without it (or readyUrl) it resolves at once. */
  readyMessage?: string;
  /** Ready once GET on this URL answers 2xx (after readyMessage when both are given). */
  readyUrl?: string;
}

/**
 * A service's real `src/main.ts` as its own process, on the TypeScript sources (tsx; @sika/* resolve to
 * packages/<name>/src through tsconfig.test.json). Services run outside jest because Prisma's client loads
 * its query compiler with a dynamic import(), which jest's CommonJS sandbox refuses.
 *
 * Defaults: HOST 127.0.0.1, GRPC_PORT, HTTP_PORT and METRICS_PORT 0 (the OS picks; read them back with
 * loggedPort), LOG_LEVEL info, and GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE: the service's own
 * certificate from the test CA (testIdentity). TEST_LOG_LEVEL=debug sets the level and echoes the output on
 * stderr.
 */
export async function spawnService(
  service: string,
  options: ServiceProcessOptions = {},
): Promise<SpawnedProcess> {
  const testLogLevel = process.env.TEST_LOG_LEVEL;
  const { env: tlsEnv } = await testIdentity(service);
  return spawnProcess({
    name: service,
    command: process.execPath,
    args: ['--import', 'tsx', path.join(WORKSPACE_ROOT, 'services', service, 'src/main.ts')],
    cwd: WORKSPACE_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      HTTP_PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: testLogLevel ?? 'info',
      ...tlsEnv,
      // Jest's own flags must not leak into the child.
      NODE_OPTIONS: undefined,
      ...options.env,
    },
    ...(options.readyMessage !== undefined && { readyWhen: isLogMessage(options.readyMessage) }),
    ...(options.readyUrl !== undefined && { readyUrl: options.readyUrl }),
    ...(testLogLevel !== undefined && { onLine: (line: string) => process.stderr.write(`${line}\n`) }),
  });
}

/** The fields of one of the service's JSON log lines; undefined for anything else (stderr text, stacks). */
function logFields(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Matches the JSON log line whose `msg` is exactly `message`. */
export function isLogMessage(message: string): (line: string) => boolean {
  return (line) => logFields(line)?.msg === message;
}

/**
 * The port the service logged with `message`, in `field`: `port` for 'grpc server listening' and 'metrics
 * server listening'. With port 0 the log is where it is said.
 */
export async function loggedPort(service: SpawnedProcess, message: string, field = 'port'): Promise<number> {
  const port = logFields(await service.waitForLine(isLogMessage(message)))?.[field];
  if (typeof port !== 'number') throw new Error(`${service.name} logged "${message}" without a ${field}`);
  return port;
}

/**
 * Sends SIGTERM (SIGKILL after `timeoutMs`, 10 s by default) and checks what every service promises on it:
 * exit code 0 once the shutdown sequence ran to its end ("shutdown complete"). Rejects otherwise, quoting
 * the end of the output, where the reason is.
 */
export async function stopGracefully(
  service: SpawnedProcess,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const status = await service.stop(options);
  const output = service.output();
  if (status.code === 0 && status.signal === null && output.includes('"msg":"shutdown complete"')) return;
  const tail = output.split('\n').slice(-OUTPUT_TAIL_LINES).join('\n');
  throw new Error(
    `${service.name} did not stop gracefully on SIGTERM (code ${status.code}, signal ${status.signal}):\n${tail}`,
  );
}
