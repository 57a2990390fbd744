import type { ObservedExchange } from '@sika/pispi';
import { Counter, Histogram } from 'prom-client';
import type { Metrics } from '@sika/platform';
import type { Mode } from '../domain/mode';

/**
 * `sika_pispi_requests_total{mode, operation, outcome}` and `sika_pispi_request_duration_seconds{mode,
 * operation}`: every exchange with a participant's API Business (PispiClient's observe), whose error rate and
 * latency are the scheme's health as Sika sees it. A refusal (`REJETE`) is an `ok` exchange.
 */
export function pispiMetrics(metrics: Metrics): (mode: Mode) => (exchange: ObservedExchange) => void {
  const requests = new Counter({
    name: 'sika_pispi_requests_total',
    help: 'Exchanges with the PI-SPI API Business, by mode, operation and outcome (ok, not_found, client_error, server_error, network_error).',
    labelNames: ['mode', 'operation', 'outcome'],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'sika_pispi_request_duration_seconds',
    help: 'Duration of exchanges with the PI-SPI API Business, token renewal included, by mode and operation.',
    labelNames: ['mode', 'operation'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  return (mode) =>
    ({ operation, outcome, durationMs }) => {
      requests.inc({ mode, operation, outcome });
      duration.observe({ mode, operation }, durationMs / 1000);
    };
}
