import type { commonV1, webhooksV1 } from '@sika/contracts';
import { AppError, isId, unaryHandler } from '@sika/platform';
import type { AuditEvents } from '../../app/audit-events';
import type { GetEndpoint } from '../../app/get-endpoint';
import type { Endpoint } from '../../app/ports';
import type { SetEndpoint } from '../../app/set-endpoint';
import type { Scope } from '../../domain/scope';

export interface WebhooksUseCases {
  setEndpoint: SetEndpoint;
  getEndpoint: GetEndpoint;
  auditEvents: AuditEvents;
}

function scopeFromProto(scope: commonV1.Scope | undefined): Scope {
  if (scope === undefined || !isId('mer', scope.merchantId)) {
    throw new AppError('parameter_invalid', 'scope.merchant_id must be a merchant id (mer_…).', {
      param: 'scope.merchant_id',
    });
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

function endpointToProto(endpoint: Endpoint): webhooksV1.Endpoint {
  return {
    scope: endpoint.scope,
    ...(endpoint.url !== null && { url: endpoint.url }),
    secret: endpoint.secret,
  };
}

export function webhooksGrpcService(useCases: WebhooksUseCases): webhooksV1.WebhooksServiceServer {
  return {
    setEndpoint: unaryHandler(async (request: webhooksV1.SetEndpointRequest) => ({
      endpoint: endpointToProto(
        await useCases.setEndpoint.execute(scopeFromProto(request.scope), request.url),
      ),
    })),
    getEndpoint: unaryHandler(async (request: webhooksV1.GetEndpointRequest) => ({
      endpoint: endpointToProto(await useCases.getEndpoint.execute(scopeFromProto(request.scope))),
    })),
    auditEvents: unaryHandler(async () => useCases.auditEvents.execute()),
  };
}
