import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPOSITORY_ROOT } from './environment';

const run = promisify(execFile);

export interface CreatedMerchant {
  merchant_id: string;
  secret_key: string;
  webhook_secret: string;
  webhook_url: string | null;
}

/**
 * Runs the operator CLI exactly as the README shows (`pnpm --silent sika-ops ... --json`) and parses its JSON.
 * Asynchronous on purpose: the CLI takes seconds on a busy machine, and a test process blocked that long can
 * neither answer the webhooks its receiver is sent nor retire its idle gateway connections before the
 * gateway closes them (the next request then fails with "other side closed").
 */
export async function sikaOps<T>(...args: string[]): Promise<T> {
  const { stdout } = await run('pnpm', ['--silent', 'sika-ops', ...args, '--json'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as T;
}

export function createMerchant(name: string, webhookUrl?: string): Promise<CreatedMerchant> {
  return sikaOps<CreatedMerchant>(
    'merchant:create',
    '--name',
    name,
    ...(webhookUrl ? ['--webhook-url', webhookUrl] : []),
  );
}

export interface AuditReport {
  succeeded_payments: number;
  owed_refunds: number;
  violations: { invariant: string; detail: string }[];
}

/**
 * `sika-ops audit --mode test`: its report, with or without violations (it exits 1 with the report on stdout when
 * it finds any). Rejects when the audit did not run.
 */
export async function auditTestMode(): Promise<AuditReport> {
  try {
    return await sikaOps<AuditReport>('audit', '--mode', 'test');
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as AuditReport;
    throw error;
  }
}
