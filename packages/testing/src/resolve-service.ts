import { DockerUnavailableError } from './containers';
import { LOCAL_HOST, type InfraKind, type InfraService } from './infra-services';

export type InfraSource = 'env' | 'local' | 'container';

export interface ResolvedService {
  url: string;
  source: InfraSource;
}

/** What resolution needs from the outside world, injected so the order of fallbacks is unit-testable. */
export interface ResolveDeps {
  env: Readonly<Record<string, string | undefined>>;
  isPortOpen(host: string, port: number): Promise<boolean>;
  startContainer(kind: InfraKind): Promise<string>;
}

/** Environment variable, else the local server on its default port, else a container, else a clear error. */
export async function resolveService(service: InfraService, deps: ResolveDeps): Promise<ResolvedService> {
  const fromEnv = deps.env[service.envVar];
  if (fromEnv) return { url: fromEnv, source: 'env' };
  if (await deps.isPortOpen(LOCAL_HOST, service.localPort)) return { url: service.localUrl, source: 'local' };
  try {
    return { url: await deps.startContainer(service.kind), source: 'container' };
  } catch (error) {
    if (error instanceof DockerUnavailableError) throw new Error(unavailableMessage(service, error.message));
    throw new Error(`${service.label}: starting it with testcontainers failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export function unavailableMessage(service: InfraService, dockerProblem: string): string {
  return [
    `${service.label} is needed by these tests but none was found:`,
    `  - ${service.envVar} is not set,`,
    `  - nothing listens on ${LOCAL_HOST}:${service.localPort},`,
    `  - testcontainers cannot start one: ${dockerProblem}.`,
    'Fix it with one of:',
    `  - export ${service.envVar}=<url of a running ${service.label}>`,
    `  - install it locally: ${service.installCommand}`,
    '  - start a Docker engine (dockerd), and the tests will run it in a container.',
  ].join('\n');
}
