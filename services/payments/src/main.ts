import { createLogger, installShutdown, parseConfigOrExit, runMain } from '@sika/platform';
import { configSchema } from './config';
import { startPaymentsService } from './payments-service';

/** Stays under Kubernetes' default 30-second termination grace period. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'payments', level: config.LOG_LEVEL });
  const service = await startPaymentsService({ config, logger });
  installShutdown({ logger, timeoutMs: SHUTDOWN_TIMEOUT_MS, steps: service.shutdownSteps });
}

void runMain('payments', main);
