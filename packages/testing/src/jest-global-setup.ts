import { resolveInfraService } from './infra';
import { INFRA_SERVICES, type InfraKind } from './infra-services';

const KINDS = Object.keys(INFRA_SERVICES) as InfraKind[];

/**
 * Jest globalSetup: resolves every server once for the whole run and exports its URL. Workers are forked
 * after this runs and inherit process.env, so they take the environment path and share any container
 * started here instead of starting their own.
 */
export default async function globalSetup(): Promise<void> {
  await Promise.all(KINDS.map(exportServerUrl));
}

async function exportServerUrl(kind: InfraKind): Promise<void> {
  const service = INFRA_SERVICES[kind];
  try {
    const { url, source } = await resolveInfraService(kind);
    process.env[service.envVar] = url;
    if (source === 'container') {
      process.stderr.write(`@sika/testing: started ${service.label} in a container at ${url}\n`);
    }
  } catch {
    // Left unset on purpose: a run that never touches this server must not fail because it is missing,
    // and the tests that do need it fail with the full "what to install" message from the worker.
  }
}
