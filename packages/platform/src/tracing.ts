import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { startSdk } from './tracing-sdk';

/**
 * OpenTelemetry traces, configured by the standard variables only: OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf, the default, or http/json),
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, OTEL_SERVICE_NAME (default: the service's name), and
 * OTEL_TRACES_EXPORTER=console to print spans without a collector. Without an endpoint or an exporter named,
 * nothing of the SDK is even loaded: tracing off costs nothing.
 *
 * It must start before the modules it instruments (http, express, undici, gRPC, pg, ioredis) are loaded, so
 * each main.ts calls it first, before importing anything else.
 */
let sdk: NodeSDK | undefined;

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_TRACES_EXPORTER,
  );
}

export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): void {
  if (sdk !== undefined || !tracingConfigured(env)) return;
  env.OTEL_SERVICE_NAME ||= service;
  // Required here, not imported at the top: with tracing off, the SDK is never even read from disk.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdkModule = require('./tracing-sdk') as { startSdk: typeof startSdk };
  sdk = sdkModule.startSdk();
}

/** Sends the spans still buffered; the last step of a service's shutdown. Nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
