import { randomBytes } from 'node:crypto';

import { webhooksV1 } from '@sika/contracts';
import { AppError, startGrpcServer, unaryHandler } from '@sika/platform';
import { allowEveryMethod, testIdentity } from '@sika/testing';
import type { Logger } from '@sika/platform';

/**
 * Stands in for webhook-dispatcher, which does not exist yet while this test is written: a real gRPC server
 * implementing sika.webhooks.v1.WebhooksService as its contract describes (one endpoint per merchant and
 * mode, the whsec_ secret made with the endpoint and kept when only the URL changes), in memory. The
 * end-to-end tests run the CLI against the real dispatcher.
 */
export interface WebhooksFixture {
  address: string;
  endpoint(merchantId: string, livemode: boolean): webhooksV1.Endpoint | undefined;
  stop(): Promise<void>;
}

export async function startWebhooksFixture(logger: Logger): Promise<WebhooksFixture> {
  const endpoints = new Map<string, webhooksV1.Endpoint>();
  const keyOf = (merchantId: string, livemode: boolean): string =>
    `${merchantId}/${livemode ? 'live' : 'test'}`;

  const implementation: Pick<webhooksV1.WebhooksServiceServer, 'setEndpoint' | 'getEndpoint'> = {
    setEndpoint: unaryHandler(async ({ scope, url }: webhooksV1.SetEndpointRequest) => {
      if (!scope?.merchantId)
        throw new AppError('parameter_invalid', 'scope.merchant_id is required', { param: 'scope' });
      const key = keyOf(scope.merchantId, scope.livemode);
      const previous = endpoints.get(key);
      const endpoint: webhooksV1.Endpoint = {
        scope,
        secret: previous?.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
        ...(url === undefined ? (previous?.url === undefined ? {} : { url: previous.url }) : { url }),
      };
      endpoints.set(key, endpoint);
      return { endpoint };
    }),
    getEndpoint: unaryHandler(async ({ scope }: webhooksV1.GetEndpointRequest) => {
      const endpoint = scope && endpoints.get(keyOf(scope.merchantId, scope.livemode));
      if (!endpoint) throw new AppError('resource_missing', 'No webhook endpoint for this merchant and mode');
      return { endpoint };
    }),
  };

  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        definition: webhooksV1.WebhooksServiceService,
        implementation,
        callers: allowEveryMethod(webhooksV1.WebhooksServiceService, ['cli']),
      },
    ],
    tls: (await testIdentity('webhook-dispatcher')).tls,
  });
  return {
    address: `127.0.0.1:${server.port}`,
    endpoint: (merchantId, livemode) => endpoints.get(keyOf(merchantId, livemode)),
    stop: () => server.shutdown(1_000),
  };
}
