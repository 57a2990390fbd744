import type { Logger } from 'pino';

/**
 * A dependency the process needs to serve traffic (database, broker …). Readiness, unlike liveness, fails
 * when one is down, so the orchestrator stops routing to this replica without restarting it.
 */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed'>;
}

/** A hung dependency must not hang the probe: past this, the check counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

async function passes(check: ReadinessCheck, logger: Logger): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return true;
  } catch (error) {
    logger.warn({ err: error, check: check.name }, 'readiness check failed');
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check in parallel. The report names checks only: failure details go to the log, not the probe. */
export async function evaluateReadiness(
  checks: readonly ReadinessCheck[],
  logger: Logger,
): Promise<ReadinessReport> {
  const outcomes = await Promise.all(checks.map((check) => passes(check, logger)));
  const report: ReadinessReport = { ready: outcomes.every(Boolean), checks: {} };
  checks.forEach((check, index) => {
    report.checks[check.name] = outcomes[index] ? 'ok' : 'failed';
  });
  return report;
}

export const HEALTH_PATHS = { liveness: '/healthz', readiness: '/readyz', metrics: '/metrics' } as const;
