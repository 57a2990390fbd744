import { merchantsV1, webhooksV1 } from '@sika/contracts';
import { AppError, createGrpcClient } from '@sika/platform';
import type { GrpcClient } from '@sika/platform';
import type { Client } from '@grpc/grpc-js';

import type { ServiceAddresses } from './environment';

/** Generous for a person at a terminal, short enough for automation to notice a dead service. */
const DEADLINE_MS = 10_000;

/** A service refused or failed a call: exit status 1, with the code and message on stderr. */
export class ServiceCallError extends Error {
  override readonly name = 'ServiceCallError';

  constructor(
    readonly service: string,
    readonly address: string,
    readonly appError: AppError,
  ) {
    const param = appError.param === undefined ? '' : ` (param: ${appError.param})`;
    super(`${service} at ${address}: ${appError.code}: ${appError.message}${param}`);
  }
}

/** The calls the commands make, each failing with a ServiceCallError that names the service. */
export interface Services {
  createMerchant(request: merchantsV1.CreateMerchantRequest): Promise<merchantsV1.CreateMerchantResponse>;
  renewSecretKey(request: merchantsV1.RenewSecretKeyRequest): Promise<merchantsV1.RenewSecretKeyResponse>;
  setEndpoint(request: webhooksV1.SetEndpointRequest): Promise<webhooksV1.SetEndpointResponse>;
  /** Closes the channels opened so far, so the process can exit. */
  close(): void;
}

/** One client, created on its first call: a command never connects to a service it does not need. */
function lazyClient<C extends Client>(
  service: string,
  address: string,
  create: () => GrpcClient<C>,
): { call<R>(use: (client: GrpcClient<C>) => Promise<R>): Promise<R>; close(): void } {
  let client: GrpcClient<C> | undefined;
  return {
    async call(use) {
      client ??= create();
      try {
        return await use(client);
      } catch (error) {
        throw error instanceof AppError ? new ServiceCallError(service, address, error) : error;
      }
    },
    close: () => client?.close(),
  };
}

export function connectServices(addresses: ServiceAddresses): Services {
  const merchants = lazyClient('merchants', addresses.merchants, () =>
    createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, { deadlineMs: DEADLINE_MS }),
  );
  const webhooks = lazyClient('webhook-dispatcher', addresses.webhookDispatcher, () =>
    createGrpcClient(webhooksV1.WebhooksServiceClient, addresses.webhookDispatcher, {
      deadlineMs: DEADLINE_MS,
    }),
  );
  return {
    createMerchant: (request) => merchants.call((client) => client.createMerchant(request)),
    renewSecretKey: (request) => merchants.call((client) => client.renewSecretKey(request)),
    setEndpoint: (request) => webhooks.call((client) => client.setEndpoint(request)),
    close: () => {
      merchants.close();
      webhooks.close();
    },
  };
}
