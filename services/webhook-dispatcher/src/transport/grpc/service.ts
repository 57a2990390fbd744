import { webhooksV1, type commonV1 } from '@sika/contracts';
import { AppError, isId, unaryHandler } from '@sika/platform';
import type { AuditEvents } from '../../app/audit-events';
import type { GetEndpoint } from '../../app/get-endpoint';
import type { GetEvent } from '../../app/get-event';
import type { ListEvents } from '../../app/list-events';
import type { DeliveryView, Endpoint, EventView } from '../../app/ports';
import type { ResendEvent } from '../../app/resend-event';
import type { RollEndpointSecret } from '../../app/roll-endpoint-secret';
import type { SendTestEvent } from '../../app/send-test-event';
import type { SetEndpoint } from '../../app/set-endpoint';
import { EVENT_TYPES, isEventType, TEST_EVENT_TYPE } from '@sika/public-api';
import { isEventObjectId } from '../../domain/event';
import type { DeliveryStatus } from '../../domain/retry-schedule';
import type { Scope } from '@sika/platform/pure';

export interface WebhooksUseCases {
  setEndpoint: SetEndpoint;
  getEndpoint: GetEndpoint;
  rollEndpointSecret: RollEndpointSecret;
  listEvents: ListEvents;
  getEvent: GetEvent;
  resendEvent: ResendEvent;
  sendTestEvent: SendTestEvent;
  auditEvents: AuditEvents;
}

const DELIVERY_STATUS: Record<DeliveryStatus, webhooksV1.DeliveryStatus> = {
  pending: webhooksV1.DeliveryStatus.DELIVERY_STATUS_PENDING,
  delivered: webhooksV1.DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  failed: webhooksV1.DeliveryStatus.DELIVERY_STATUS_FAILED,
};

function scopeFromProto(scope: commonV1.Scope | undefined): Scope {
  if (scope === undefined || !isId('mer', scope.merchantId)) {
    throw new AppError('parameter_invalid', 'scope.merchant_id must be a merchant id (mer_…).', {
      param: 'scope.merchant_id',
    });
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

function objectIdFromProto(objectId: string | undefined): string | undefined {
  if (objectId !== undefined && !isEventObjectId(objectId)) {
    throw new AppError('parameter_invalid', 'object_id must be a payment id (pay_…) or a payout id (po_…).', {
      param: 'object_id',
    });
  }
  return objectId;
}

/** A list's `type` filter: a type some event can have, else parameter_invalid naming `type`. */
function typeFromProto(type: string | undefined): string | null {
  if (type === undefined) return null;
  if (!isEventType(type) && type !== TEST_EVENT_TYPE) {
    throw new AppError(
      'parameter_invalid',
      `type must be one of ${[...EVENT_TYPES, TEST_EVENT_TYPE].join(', ')}.`,
      {
        param: 'type',
      },
    );
  }
  return type;
}

function endpointToProto(endpoint: Endpoint): webhooksV1.Endpoint {
  return {
    scope: endpoint.scope,
    ...(endpoint.url !== null && { url: endpoint.url }),
    secret: endpoint.secret,
  };
}

function deliveryToProto(delivery: DeliveryView): webhooksV1.EventDelivery {
  return {
    status: DELIVERY_STATUS[delivery.status],
    attemptCount: delivery.attemptCount,
    ...(delivery.nextAttemptAt !== null && { nextAttemptAt: delivery.nextAttemptAt }),
    ...(delivery.deliveredAt !== null && { deliveredAt: delivery.deliveredAt }),
    attempts: delivery.attempts.map((attempt) => ({
      number: attempt.number,
      attemptedAt: attempt.attemptedAt,
      url: attempt.url,
      ...(attempt.statusCode !== null && { statusCode: attempt.statusCode }),
      ...(attempt.error !== null && { error: attempt.error }),
      durationMs: attempt.durationMs,
    })),
  };
}

function eventToProto(event: EventView): webhooksV1.Event {
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    payload: event.payload,
    delivery: event.delivery === null ? undefined : deliveryToProto(event.delivery),
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
    rollEndpointSecret: unaryHandler(async (request: webhooksV1.RollEndpointSecretRequest) => {
      const { endpoint, previousSecretExpiresAt } = await useCases.rollEndpointSecret.execute(
        scopeFromProto(request.scope),
        request.expirePreviousAfterSeconds,
      );
      return {
        endpoint: endpointToProto(endpoint),
        ...(previousSecretExpiresAt !== null && { previousSecretExpiresAt }),
      };
    }),
    listEvents: unaryHandler(async (request: webhooksV1.ListEventsRequest) => {
      const { events, hasMore } = await useCases.listEvents.execute(
        scopeFromProto(request.scope),
        { limit: request.page?.limit ?? 0, startingAfter: request.page?.startingAfter },
        {
          objectId: objectIdFromProto(request.objectId) ?? null,
          type: typeFromProto(request.type),
          createdFrom: request.createdFrom ?? null,
          createdTo: request.createdTo ?? null,
        },
      );
      return { events: events.map(eventToProto), hasMore };
    }),
    getEvent: unaryHandler(async (request: webhooksV1.GetEventRequest) => ({
      event: eventToProto(await useCases.getEvent.execute(scopeFromProto(request.scope), request.eventId)),
    })),
    resendEvent: unaryHandler(async (request: webhooksV1.ResendEventRequest) => ({
      event: eventToProto(await useCases.resendEvent.execute(scopeFromProto(request.scope), request.eventId)),
    })),
    sendTestEvent: unaryHandler(async (request: webhooksV1.SendTestEventRequest) => ({
      event: eventToProto(await useCases.sendTestEvent.execute(scopeFromProto(request.scope))),
    })),
    auditEvents: unaryHandler(async () => useCases.auditEvents.execute()),
  };
}
