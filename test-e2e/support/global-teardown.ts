import { setTimeout as sleep } from 'node:timers/promises';
import infrastructureTeardown from '../../packages/testing/src/jest-global-teardown';
import { scanLogForLeaks } from '../../packages/testing/src/log-scan';
import { auditTestMode, type AuditReport } from './cli';
import { closeTraceReceiver, stackOutput, stopStack } from './stack-handle';

/**
 * After the end-to-end files, the operator's audit of the books and payments (`sika-ops audit`) must find every
 * invariant holding, or the run fails. The last news of the files may still be in flight: the audit is taken
 * again for a few seconds before its verdict counts.
 */
async function auditAtAQuietMoment(): Promise<AuditReport> {
  let report = await auditTestMode();
  for (let attempt = 1; attempt < 5 && report.violations.length > 0; attempt++) {
    await sleep(2_000);
    report = await auditTestMode();
  }
  return report;
}

/**
 * Every service's log, from its start to its stop, must hold no customer alias, API key, webhook secret or
 * holder name (packages/testing's scanLogForLeaks), or the run fails. The report shows where, masked.
 */
function scanStackLogs(): void {
  const output = stackOutput();
  const findings = scanLogForLeaks(output);
  process.stderr.write(
    `log scan after the end-to-end files: ${output.split('\n').length} lines, ${findings.length} leaks\n`,
  );
  if (findings.length > 0) {
    const lines = findings.map(({ kind, line, excerpt }) => `  line ${line}, ${kind}: ${excerpt}`);
    throw new Error(`the services' logs leak personal data or secrets:\n${lines.join('\n')}`);
  }
}

/**
 * The books watch (the ledger's continuous audit) must have found nothing either, round after round while the
 * files ran: a violation it logs is a false alarm or money booked that nobody decided, and both fail the run.
 */
function checkBooksWatch(): void {
  const violations = stackOutput()
    .split('\n')
    .filter((line) => line.includes('the books broke an invariant'));
  process.stderr.write(`books watch during the end-to-end files: ${violations.length} violations\n`);
  if (violations.length > 0) {
    throw new Error(`the books watch found violations:\n${violations.map((line) => `  ${line}`).join('\n')}`);
  }
}

export default async function globalTeardown(): Promise<void> {
  try {
    const report = await auditAtAQuietMoment();
    process.stderr.write(
      `audit after the end-to-end files: ${report.succeeded_payments} succeeded payments, ` +
        `${report.owed_refunds} transfers owed back, ${report.violations.length} violations\n`,
    );
    if (report.violations.length > 0) {
      const lines = report.violations.map(({ invariant, detail }) => `  ${invariant}: ${detail}`);
      throw new Error(`the audit after the end-to-end files found violations:\n${lines.join('\n')}`);
    }
  } finally {
    await stopStack();
    await closeTraceReceiver();
    await infrastructureTeardown();
  }
  scanStackLogs();
  checkBooksWatch();
}
