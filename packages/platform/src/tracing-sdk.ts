import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * The OpenTelemetry SDK with the instrumentations Sika's traffic goes through; exporter, sampler and resource
 * from the OTEL_* variables (NodeSDK reads them). Loaded only when tracing is on (tracing.ts).
 */
export function startSdk(): NodeSDK {
  const sdk = new NodeSDK({
    instrumentations: [
      // Probes and scrapes are not traffic: no span for them.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)\b/.test(request.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new UndiciInstrumentation(),
      new GrpcInstrumentation(),
      // Queries and commands of a traced operation only, not the polling loops' idle rounds.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return sdk;
}
