import { startContainer } from './containers';
import { INFRA_SERVICES, type InfraKind } from './infra-services';
import { resolveService, type ResolvedService } from './resolve-service';
import { isPortOpen } from './tcp';

export interface Infra {
  databaseUrl: string;
  amqpUrl: string;
  redisUrl: string;
}

/** One lookup per server and process: probing and container starts are not repeated by every test. */
const resolutions = new Map<InfraKind, Promise<ResolvedService>>();

export function resolveInfraService(kind: InfraKind): Promise<ResolvedService> {
  let resolution = resolutions.get(kind);
  if (!resolution) {
    resolution = resolveService(INFRA_SERVICES[kind], { env: process.env, isPortOpen, startContainer });
    resolutions.set(kind, resolution);
  }
  return resolution;
}

export async function resolveDatabaseUrl(): Promise<string> {
  return (await resolveInfraService('postgres')).url;
}

export async function resolveAmqpUrl(): Promise<string> {
  return (await resolveInfraService('rabbitmq')).url;
}

export async function resolveRedisUrl(): Promise<string> {
  return (await resolveInfraService('redis')).url;
}

/** All three servers; tests that need only one should call its own resolver so the others may be absent. */
export async function resolveInfra(): Promise<Infra> {
  const [databaseUrl, amqpUrl, redisUrl] = await Promise.all([
    resolveDatabaseUrl(),
    resolveAmqpUrl(),
    resolveRedisUrl(),
  ]);
  return { databaseUrl, amqpUrl, redisUrl };
}
