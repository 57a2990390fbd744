import { PispiClient } from '@sika/pispi';

import type { SchemeDirectory } from '../app/ports';
import type { Config } from '../config';

/** When no token URL is configured: `/oauth/token` at the base URL's origin (where the simulator serves it). */
function defaultTokenUrl(baseUrl: string): string {
  return new URL('/oauth/token', baseUrl).toString();
}

/** One API Business client per configured mode. */
export function schemeDirectory(config: Config): SchemeDirectory {
  const test = {
    client: new PispiClient({
      baseUrl: config.PISPI_TEST_BASE_URL,
      tokenUrl: config.PISPI_TEST_TOKEN_URL ?? defaultTokenUrl(config.PISPI_TEST_BASE_URL),
      clientId: config.PISPI_TEST_CLIENT_ID,
      clientSecret: config.PISPI_TEST_CLIENT_SECRET,
      timeoutMs: config.PISPI_TIMEOUT,
    }),
    payeeAlias: config.PISPI_TEST_PAYEE_ALIAS,
  };
  const { PISPI_LIVE_BASE_URL, PISPI_LIVE_CLIENT_ID, PISPI_LIVE_CLIENT_SECRET, PISPI_LIVE_PAYEE_ALIAS } =
    config;
  if (!PISPI_LIVE_BASE_URL || !PISPI_LIVE_CLIENT_ID || !PISPI_LIVE_CLIENT_SECRET || !PISPI_LIVE_PAYEE_ALIAS) {
    return { test };
  }
  const live = {
    client: new PispiClient({
      baseUrl: PISPI_LIVE_BASE_URL,
      tokenUrl: config.PISPI_LIVE_TOKEN_URL ?? defaultTokenUrl(PISPI_LIVE_BASE_URL),
      clientId: PISPI_LIVE_CLIENT_ID,
      clientSecret: PISPI_LIVE_CLIENT_SECRET,
      timeoutMs: config.PISPI_TIMEOUT,
    }),
    payeeAlias: PISPI_LIVE_PAYEE_ALIAS,
  };
  return { test, live };
}
