import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process (never prom-client's global one), so tests that start several apps in one
 * process do not collide and each process exposes exactly its own series.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly grpcServerHandling: Histogram<'grpc_service' | 'grpc_method' | 'grpc_code'>;
}

/** Latency buckets from 5 ms to 10 s: internal calls are milliseconds, scheme calls seconds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How often the event loop's delay is sampled for nodejs_eventloop_lag_*: prom-client's 10 ms default wakes an
 * idle process 100 times a second, 5–6 ms of CPU a second per service on the 2-core machine (perf: all of it
 * in the wakeups). Ten samples a second still give a scrape every 15 s its percentiles.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics({ service }: { service: string }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [registry],
    }),
    // Names follow go-grpc-prometheus so that the usual gRPC dashboards work as is.
    grpcServerHandling: new Histogram({
      name: 'grpc_server_handling_seconds',
      help: 'Duration of gRPC calls handled by this process, by service, method and status code.',
      labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [registry],
    }),
  };
}

/** A counter of the process's registry, e.g. the violations the books watch found, by invariant. */
export function createCounter<Label extends string>(
  metrics: Metrics,
  options: { name: string; help: string; labelNames: readonly Label[] },
): Counter<Label> {
  return new Counter({ ...options, registers: [metrics.registry] });
}

/** How long one reading serves the scrape that asked for it and those that follow at once. */
const READING_REUSED_MS = 1_000;

/**
 * Gauges read on each scrape from one query (a backlog's depth and age, say): the query runs once for all of
 * them, and its reading is reused for a second, so gauges of one scrape agree and two scrapers cost one query.
 * A failed reading (the database down) leaves them out of that scrape, rather than a wrong value or a failed
 * scrape that would hide every other series, those about the outage first.
 */
export function createScrapedGauges<Key extends string>(
  metrics: Metrics,
  read: () => Promise<Record<Key, number>>,
  gauges: readonly { name: string; help: string; key: Key }[],
): void {
  let reading: { at: number; values: Promise<Record<Key, number>> } | undefined;
  const current = () => {
    if (reading === undefined || Date.now() - reading.at > READING_REUSED_MS) {
      reading = { at: Date.now(), values: read() };
    }
    return reading.values;
  };
  for (const { name, help, key } of gauges) {
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        this.reset();
        const values = await current().catch(() => undefined);
        if (values !== undefined) this.set(values[key]);
      },
    });
  }
}
