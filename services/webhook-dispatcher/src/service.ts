import { webhooksV1 } from '@sika/contracts';
import { notifyingAfterCommit } from '@sika/messaging';
import type { Broker, Consumer } from '@sika/messaging';
import {
  startGrpcServer,
  type Clock,
  type Logger,
  type Metrics,
  type RunningGrpcServer,
} from '@sika/platform';
import { webhookDeliverer, type DeliverWebhookSettings } from './app/deliver-webhook';
import { getEndpoint } from './app/get-endpoint';
import { recordPaymentEvent } from './app/record-payment-event';
import { setEndpoint } from './app/set-endpoint';
import type { PrismaClient } from './generated/prisma/client';
import { deliveryMetrics } from './infra/delivery-metrics';
import { FetchWebhookSender } from './infra/http-webhook-sender';
import { PrismaDeliveryQueue } from './infra/prisma-delivery-queue';
import { PrismaEndpointRepository } from './infra/prisma-endpoint-repository';
import { PrismaEventStore } from './infra/prisma-event-store';
import type { SecretBox } from './infra/secret-box';
import { startDeliveryWorker, type DeliveryWorker } from './transport/delivery-worker';
import { webhooksGrpcService } from './transport/grpc-service';
import { startPaymentEventsConsumer } from './transport/payment-events-consumer';

export interface WebhookDispatcherOptions {
  prisma: PrismaClient;
  broker: Broker;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
  host: string;
  /** 0 lets the OS choose (tests). */
  grpcPort: number;
  delivery: DeliverWebhookSettings & { pollIntervalMs: number; concurrency: number };
  /** Defaults: `sika.events` and `webhook-dispatcher.payment-events`. Tests take their own, one message at a time. */
  events?: { exchange?: string; queue?: string; prefetch?: number };
}

export interface RunningWebhookDispatcher {
  grpc: RunningGrpcServer;
  consumer: Consumer;
  worker: DeliveryWorker;
}

/** Repositories → use cases → gRPC, event consumer and delivery worker: shared by main.ts and the tests. */
export async function startWebhookDispatcher(
  options: WebhookDispatcherOptions,
): Promise<RunningWebhookDispatcher> {
  const { prisma, broker, secrets, clock, logger, metrics } = options;
  const endpoints = new PrismaEndpointRepository(prisma, secrets);

  const grpc = await startGrpcServer({
    host: options.host,
    port: options.grpcPort,
    logger,
    ...(metrics && { metrics }),
    services: [
      {
        definition: webhooksV1.WebhooksServiceService,
        implementation: webhooksGrpcService({
          setEndpoint: setEndpoint({ repository: endpoints, clock, logger }),
          getEndpoint: getEndpoint({ repository: endpoints }),
        }),
      },
    ],
  });
  const worker = startDeliveryWorker({
    deliverer: webhookDeliverer({
      queue: new PrismaDeliveryQueue(prisma, secrets),
      sender: new FetchWebhookSender(),
      clock,
      logger,
      ...(metrics && { observer: deliveryMetrics(metrics.registry) }),
      settings: { timeoutMs: options.delivery.timeoutMs, userAgent: options.delivery.userAgent },
    }),
    pollIntervalMs: options.delivery.pollIntervalMs,
    concurrency: options.delivery.concurrency,
    logger,
  });
  const consumer = await startPaymentEventsConsumer({
    broker,
    // The delivery of a stored event starts at once, not at the worker's next poll.
    prisma: notifyingAfterCommit(prisma, () => worker.wake()),
    eventStoreFor: (tx) => new PrismaEventStore(tx),
    recordPaymentEvent: recordPaymentEvent({ clock, logger }),
    logger,
    ...options.events,
  });
  return { grpc, consumer, worker };
}
