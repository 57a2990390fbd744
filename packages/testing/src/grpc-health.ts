import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import type { Client, ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

import { testIdentity } from './test-pki';

/** grpc-health-check ships the service definition, not a typed client: this is the one method used. */
interface HealthClient extends Client {
  check(
    request: { service: string },
    callback: (error: ServiceError | null, response: { status: string }) => void,
  ): void;
}
const HealthClientConstructor = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');

/**
 * What grpc.health.v1 at `address` answers for `service` ('' is the whole server): SERVING, NOT_SERVING…
 * Asked over mutual TLS with a certificate of the test CA, as any holder of one may ask.
 */
export async function grpcHealthStatus(address: string, service: string): Promise<string> {
  const { ca, privateKey, certificate } = (await testIdentity('health-probe')).tls;
  const health = new HealthClientConstructor(
    address,
    credentials.createSsl(ca, privateKey, certificate),
  ) as unknown as HealthClient;
  return new Promise<string>((resolve, reject) => {
    health.check({ service }, (error, response) => (error ? reject(error) : resolve(response.status)));
  }).finally(() => health.close());
}
