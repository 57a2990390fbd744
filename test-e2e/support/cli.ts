import { execFileSync } from 'node:child_process';
import { REPOSITORY_ROOT } from './environment';

export interface CreatedMerchant {
  merchant_id: string;
  secret_key: string;
  webhook_secret: string;
  webhook_url: string | null;
}

/** Runs the operator CLI exactly as the README shows (`pnpm --silent sika ... --json`) and parses its JSON. */
export function sika<T>(...args: string[]): T {
  const stdout = execFileSync('pnpm', ['--silent', 'sika', ...args, '--json'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout) as T;
}

export function createMerchant(name: string, webhookUrl?: string): CreatedMerchant {
  return sika<CreatedMerchant>(
    'merchant:create',
    '--name',
    name,
    ...(webhookUrl ? ['--webhook-url', webhookUrl] : []),
  );
}
