import { PispiClient, type ObservedExchange } from '@sika/pispi';
import type { Agent } from 'undici';

import type { ParticipantDirectory } from '../app/ports';
import { tlsVariables, type Config } from '../config';
import type { Mode } from '../domain/mode';
import { participantAgent } from './participant-tls';

/** When no token URL is configured: `/oauth/token` at the base URL's origin (where the simulator serves it). */
function defaultTokenUrl(baseUrl: string): string {
  return new URL('/oauth/token', baseUrl).toString();
}

/** The mode's bounded pool, with mutual TLS when its files are configured (config.ts requires them in live mode). */
function dispatcherFor(config: Config, mode: Mode): Agent {
  const [certVariable, keyVariable, caVariable] = tlsVariables(mode);
  const [certPath, keyPath, caPath] = [config[certVariable], config[keyVariable], config[caVariable]];
  if (certPath === undefined || keyPath === undefined || caPath === undefined) {
    return participantAgent(config.PISPI_MAX_CONNECTIONS);
  }
  return participantAgent(config.PISPI_MAX_CONNECTIONS, {
    certFile: { variable: certVariable, path: certPath },
    keyFile: { variable: keyVariable, path: keyPath },
    caFile: { variable: caVariable, path: caPath },
  });
}

/**
 * One API Business client per configured mode, each over its own bounded pool (mutual TLS when configured),
 * each exchange told to `observe` of its mode (the metrics).
 */
export function participantDirectory(
  config: Config,
  observe?: (mode: Mode) => (exchange: ObservedExchange) => void,
): ParticipantDirectory {
  const test = {
    client: new PispiClient({
      baseUrl: config.PISPI_TEST_BASE_URL,
      tokenUrl: config.PISPI_TEST_TOKEN_URL ?? defaultTokenUrl(config.PISPI_TEST_BASE_URL),
      clientId: config.PISPI_TEST_CLIENT_ID,
      clientSecret: config.PISPI_TEST_CLIENT_SECRET,
      timeoutMs: config.PISPI_TIMEOUT,
      dispatcher: dispatcherFor(config, 'test'),
      ...(observe && { observe: observe('test') }),
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
      dispatcher: dispatcherFor(config, 'live'),
      ...(observe && { observe: observe('live') }),
    }),
    payeeAlias: PISPI_LIVE_PAYEE_ALIAS,
  };
  return { test, live };
}
