import { webhooksV1 } from '@sika/contracts';
import { AmqpBroker, brokerReadiness, notifyingAfterCommit, retentionLoop } from '@sika/messaging';
import {
  BackgroundTasks,
  type BasicOverrides,
  closing,
  databaseReadiness,
  grpcService,
  grpcTls,
  PollingLoop,
  SecretBox,
  serviceBasics,
} from '@sika/platform';
import { DeliverWebhooks } from './app/deliver-webhook';
import { AuditEvents } from './app/audit-events';
import { GetEndpoint } from './app/get-endpoint';
import { GetEvent } from './app/get-event';
import { ListEvents } from './app/list-events';
import type { WebhookSender } from './app/ports';
import { RecordEvent } from './app/record-event';
import { ResendEvent } from './app/resend-event';
import { DeliverWaitingEvents } from './app/deliver-waiting-events';
import { RollEndpointSecret } from './app/roll-endpoint-secret';
import { SendTestEvent } from './app/send-test-event';
import { SetEndpoint } from './app/set-endpoint';
import { WebhookTargets } from './app/webhook-targets';
import { USER_AGENT, type Config } from './config';
import { deliveryMetrics, pendingDeliveryGauges } from './infra/delivery-metrics';
import { DnsHostResolver } from './infra/dns-host-resolver';
import { HttpWebhookSender } from './infra/http-webhook-sender';
import { OpenedSecrets } from './infra/opened-secrets';
import { BatchedDeliveryQueue } from './infra/batched-delivery-queue';
import { createDatabase } from './infra/database';
import { SqlDeliveryQueue } from './infra/sql-delivery-queue';
import { SqlEndpointRepository } from './infra/sql-endpoint-repository';
import { SqlEventAudit } from './infra/sql-event-audit';
import { SqlEventReader } from './infra/sql-event-reader';
import { SqlEventRecorder } from './infra/sql-event-recorder';
import { eventStoreTransactions } from './infra/sql-event-store';
import { WEBHOOKS_CALLERS } from './transport/grpc/callers';
import { webhooksGrpcService } from './transport/grpc/service';
import { EVENT_SOURCES, eventsConsumer } from './transport/events-consumers';

/** What tests replace: the clock they move by hand, a silent logger, how many messages are in flight. */
export interface WebhookDispatcherOverrides extends BasicOverrides {
  sender?: WebhookSender;
  prefetch?: number;
}

/** After a failed scan (database down…), wait at least this long: retrying every poll would flood the logs. */
const FAILURE_PAUSE_MS = 2_000;

/**
 * Config → database, broker → use cases → gRPC, the payment and payout events consumers and the delivery loop.
 * Stops in reverse: gRPC, then the consumers, then the loop (in-flight attempts are bounded by WEBHOOK_TIMEOUT; one cut
 * short is made again after its lease), then the kept connections to endpoints, the broker, the pool and the
 * probes.
 */
export function composeWebhookDispatcher(config: Config, overrides: WebhookDispatcherOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('webhook-dispatcher', config, overrides);
  const db = createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, metrics });
  const broker = new AmqpBroker({ url: config.AMQP_URL, logger });
  const secrets = new SecretBox(config.WEBHOOK_SECRET_KEY, config.WEBHOOK_SECRET_PREVIOUS_KEYS);
  const targets = new WebhookTargets({
    resolver: new DnsHostResolver({
      timeoutMs: config.WEBHOOK_DNS_TIMEOUT,
      servers: config.WEBHOOK_DNS_SERVERS,
    }),
    rules: { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
  });

  const deliveryQueue = new SqlDeliveryQueue(db, new OpenedSecrets(secrets));
  const observer = deliveryMetrics(metrics.registry);
  pendingDeliveryGauges(metrics, db);
  const httpSender = new HttpWebhookSender();
  const attempts = new BackgroundTasks(
    (err) => logger.error({ err }, 'webhook attempt failed to complete; retried after its lease'),
    // A slot opened: look for more work now rather than after a full pause, if there may be more.
    () => {
      if (deliverWebhooks.slotFreed()) deliveries.wake();
    },
  );
  const deliverWebhooks = new DeliverWebhooks({
    attempts,
    concurrency: config.WEBHOOK_CONCURRENCY,
    endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    queue: new BatchedDeliveryQueue(deliveryQueue),
    sender: overrides.sender ?? httpSender,
    targets,
    clock,
    logger,
    observer,
    settings: { timeoutMs: config.WEBHOOK_TIMEOUT, userAgent: USER_AGENT },
  });
  const deliveries = new PollingLoop({
    name: 'webhook deliveries',
    round: () => deliverWebhooks.execute(),
    intervalMs: config.WEBHOOK_POLL_INTERVAL,
    failurePauseMs: Math.max(config.WEBHOOK_POLL_INTERVAL, FAILURE_PAUSE_MS),
    drain: () => attempts.drain(),
    clock,
    logger,
  });
  // The delivery of a stored event starts at once, not at the loop's next round: the statement that stored
  // the event claimed it, for this process's worker. A resend's, or a test event's, is claimed by the round
  // its transaction's commit wakes.
  const recordEvent = new RecordEvent({
    recorder: new SqlEventRecorder(db, deliveryQueue, (claimed) => deliverWebhooks.handOver(claimed)),
    clock,
    logger,
    attemptTimeoutMs: config.WEBHOOK_TIMEOUT,
    observer,
  });
  const consumerOf = (source: keyof typeof EVENT_SOURCES, queue: string) =>
    eventsConsumer({
      source: EVENT_SOURCES[source],
      broker,
      recordEvent,
      logger,
      topology: {
        exchange: config.EVENTS_EXCHANGE,
        queue,
        ...(overrides.prefetch !== undefined && { prefetch: overrides.prefetch }),
      },
      metrics,
    });
  const paymentEvents = consumerOf('payments', config.PAYMENT_EVENTS_QUEUE);
  const payoutEvents = consumerOf('payouts', config.PAYOUT_EVENTS_QUEUE);

  const endpoints = new SqlEndpointRepository(db, secrets);
  const events = new SqlEventReader(db);
  const transactions = eventStoreTransactions(notifyingAfterCommit(db, () => deliveries.wake()));
  const waiting = new DeliverWaitingEvents({ transactions, clock, logger });
  const manualSends = { limit: config.WEBHOOK_MANUAL_SENDS_PER_MINUTE, windowMs: 60_000 };
  const retention = retentionLoop(db, config, { clock, logger });

  return grpcService(
    {
      config,
      logger,
      metrics,
      readiness: [databaseReadiness(db), brokerReadiness(broker)],
      api: {
        definition: webhooksV1.WebhooksServiceService,
        implementation: webhooksGrpcService({
          setEndpoint: new SetEndpoint({ repository: endpoints, targets, waiting, clock, logger }),
          getEndpoint: new GetEndpoint({ repository: endpoints }),
          rollEndpointSecret: new RollEndpointSecret({ repository: endpoints, waiting, clock, logger }),
          listEvents: new ListEvents({ reader: events }),
          getEvent: new GetEvent({ reader: events }),
          resendEvent: new ResendEvent({ reader: events, transactions, clock, logger, manualSends }),
          sendTestEvent: new SendTestEvent({ reader: events, transactions, clock, logger, manualSends }),
          auditEvents: new AuditEvents(new SqlEventAudit(db)),
        }),
        callers: WEBHOOKS_CALLERS,
      },
      tls: grpcTls(config),
    },
    closing('database pool', () => db.destroy()),
    broker,
    retention,
    closing('webhook connections', () => httpSender.close()),
    deliveries,
    paymentEvents,
    payoutEvents,
  );
}

export type WebhookDispatcher = ReturnType<typeof composeWebhookDispatcher>;
