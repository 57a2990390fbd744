import { DEFAULT_BASE_URL } from '@sika/node';

/** Bad arguments or environment: the reason and the usage on stderr, exit 2, nothing called. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CliConfig {
  secretKey: string;
  apiBase: string;
}

/**
 * The test secret key (--api-key, else SIKA_SECRET_KEY) and where the API answers (--api-base, else
 * SIKA_API_BASE, else the local run). A live key is refused: everything this tool does is test mode's.
 */
export function readConfig(
  options: { 'api-key'?: string; 'api-base'?: string },
  env: NodeJS.ProcessEnv,
): CliConfig {
  const secretKey = options['api-key'] || env.SIKA_SECRET_KEY;
  if (!secretKey) {
    throw new UsageError('Set SIKA_SECRET_KEY to your test secret key (sk_test_…), or pass --api-key.');
  }
  if (secretKey.startsWith('sk_live_')) {
    throw new UsageError('sika works with a test secret key (sk_test_…) only: a live key moves real money.');
  }
  if (!secretKey.startsWith('sk_test_')) {
    throw new UsageError('The secret key must be a test secret key, starting with sk_test_.');
  }
  const apiBase = options['api-base'] || env.SIKA_API_BASE || DEFAULT_BASE_URL;
  if (!/^https?:\/\/[^/\s]+/.test(apiBase)) {
    throw new UsageError(`--api-base must be an http(s) URL without /v1, e.g. ${DEFAULT_BASE_URL}.`);
  }
  return { secretKey, apiBase };
}
