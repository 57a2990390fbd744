import type * as Testcontainers from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import type { InfraKind } from './infra-services';

/** No Docker engine answered: the caller falls through to its "what to install" message. */
export class DockerUnavailableError extends Error {
  override readonly name = 'DockerUnavailableError';
}

interface ContainerSpec {
  image: string;
  port: number;
  environment: Record<string, string>;
  readyLog: RegExp;
  /** Postgres logs "ready" once for its init server and once for the real one. */
  readyLogTimes: number;
  url(host: string, port: number): string;
}

/** Tags follow the majors of the local stack (Debian 12: PostgreSQL 15, RabbitMQ 3, Redis 7), so a container
 * run behaves like a local one. */
const CONTAINER_SPECS: Readonly<Record<InfraKind, ContainerSpec>> = {
  postgres: {
    image: 'postgres:15-alpine',
    port: 5432,
    environment: { POSTGRES_HOST_AUTH_METHOD: 'trust' },
    readyLog: /database system is ready to accept connections/,
    readyLogTimes: 2,
    url: (host, port) => `postgres://postgres@${host}:${port}/postgres`,
  },
  rabbitmq: {
    image: 'rabbitmq:3.13-alpine',
    port: 5672,
    // RabbitMQ refuses `guest` from anything but loopback, and mapped ports are not loopback inside.
    environment: { RABBITMQ_DEFAULT_USER: 'sika', RABBITMQ_DEFAULT_PASS: 'sika' },
    readyLog: /Server startup complete/,
    readyLogTimes: 1,
    url: (host, port) => `amqp://sika:sika@${host}:${port}`,
  },
  redis: {
    image: 'redis:7-alpine',
    port: 6379,
    environment: {},
    readyLog: /Ready to accept connections/,
    readyLogTimes: 1,
    url: (host, port) => `redis://${host}:${port}`,
  },
};

const STARTED_KEY = Symbol.for('@sika/testing.startedContainers');
type GlobalWithContainers = typeof globalThis & { [STARTED_KEY]?: StartedTestContainer[] };

/**
 * Containers started by this process, kept on globalThis because jest loads globalSetup and
 * globalTeardown as separate modules: only globals are shared between them.
 */
function startedContainers(): StartedTestContainer[] {
  const holder = globalThis as GlobalWithContainers;
  holder[STARTED_KEY] ??= [];
  return holder[STARTED_KEY];
}

/**
 * Starts the server in a container and returns its URL. Throws DockerUnavailableError within
 * milliseconds when no engine is reachable (testcontainers checks the socket before anything else).
 */
export async function startContainer(kind: InfraKind): Promise<string> {
  // Loaded on demand: testcontainers pulls in dockerode and friends (~350 ms), which runs that find their
  // servers in the environment or on localhost never need. require, not import(): jest runs CommonJS
  // tests without --experimental-vm-modules, where a dynamic import() throws.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const testcontainers = require('testcontainers') as typeof Testcontainers;
  const { GenericContainer, Wait, getContainerRuntimeClient } = testcontainers;
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    throw new DockerUnavailableError(`no Docker engine found (${(error as Error).message})`);
  }
  const spec = CONTAINER_SPECS[kind];
  const container = await new GenericContainer(spec.image)
    .withExposedPorts(spec.port)
    .withEnvironment(spec.environment)
    .withWaitStrategy(Wait.forLogMessage(spec.readyLog, spec.readyLogTimes))
    .withStartupTimeout(120_000)
    .start();
  startedContainers().push(container);
  return spec.url(container.getHost(), container.getMappedPort(spec.port));
}

export async function stopStartedContainers(): Promise<void> {
  const containers = startedContainers().splice(0);
  await Promise.all(containers.map((container) => container.stop()));
}
