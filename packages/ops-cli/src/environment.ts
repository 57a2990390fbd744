import path from 'node:path';

import { ConfigError, loadGrpcTls, type GrpcTls } from '@sika/platform';
import { z } from 'zod';

import { ArgumentError } from './arguments';

/** Local defaults: the port table of the README. */
export const DEFAULT_ADDRESSES = {
  MERCHANTS_GRPC_ADDRESS: '127.0.0.1:8051',
  PAYMENTS_GRPC_ADDRESS: '127.0.0.1:8052',
  LEDGER_GRPC_ADDRESS: '127.0.0.1:8054',
  WEBHOOK_DISPATCHER_GRPC_ADDRESS: '127.0.0.1:8055',
  PAYOUTS_GRPC_ADDRESS: '127.0.0.1:8056',
  SIMULATOR_URL: 'http://127.0.0.1:8090',
} as const;

/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

const address = (variable: string) =>
  z.string().refine((value) => {
    const match = HOST_PORT.exec(value);
    return match !== null && Number(match[2]) > 0 && Number(match[2]) <= 65_535;
  }, `${variable} must be host:port, e.g. 127.0.0.1:8051`);

const environmentSchema = z.object({
  MERCHANTS_GRPC_ADDRESS: address('MERCHANTS_GRPC_ADDRESS').default(DEFAULT_ADDRESSES.MERCHANTS_GRPC_ADDRESS),
  PAYMENTS_GRPC_ADDRESS: address('PAYMENTS_GRPC_ADDRESS').default(DEFAULT_ADDRESSES.PAYMENTS_GRPC_ADDRESS),
  LEDGER_GRPC_ADDRESS: address('LEDGER_GRPC_ADDRESS').default(DEFAULT_ADDRESSES.LEDGER_GRPC_ADDRESS),
  WEBHOOK_DISPATCHER_GRPC_ADDRESS: address('WEBHOOK_DISPATCHER_GRPC_ADDRESS').default(
    DEFAULT_ADDRESSES.WEBHOOK_DISPATCHER_GRPC_ADDRESS,
  ),
  PAYOUTS_GRPC_ADDRESS: address('PAYOUTS_GRPC_ADDRESS').default(DEFAULT_ADDRESSES.PAYOUTS_GRPC_ADDRESS),
  SIMULATOR_URL: z
    .url({ protocol: /^https?$/, error: 'SIMULATOR_URL must be an http:// or https:// URL' })
    .default(DEFAULT_ADDRESSES.SIMULATOR_URL),
});

export interface ServiceAddresses {
  merchants: string;
  payments: string;
  ledger: string;
  webhookDispatcher: string;
  payouts: string;
  /** Test mode's bank, for the simulated customer's actions. */
  simulatorUrl: string;
}

/** Where the services answer; an empty variable counts as unset. Wrong values are the caller's (exit 2). */
export function readAddresses(env: NodeJS.ProcessEnv): ServiceAddresses {
  const result = environmentSchema.safeParse({
    MERCHANTS_GRPC_ADDRESS: env.MERCHANTS_GRPC_ADDRESS || undefined,
    PAYMENTS_GRPC_ADDRESS: env.PAYMENTS_GRPC_ADDRESS || undefined,
    LEDGER_GRPC_ADDRESS: env.LEDGER_GRPC_ADDRESS || undefined,
    WEBHOOK_DISPATCHER_GRPC_ADDRESS: env.WEBHOOK_DISPATCHER_GRPC_ADDRESS || undefined,
    PAYOUTS_GRPC_ADDRESS: env.PAYOUTS_GRPC_ADDRESS || undefined,
    SIMULATOR_URL: env.SIMULATOR_URL || undefined,
  });
  if (!result.success) throw new ArgumentError(result.error.issues.map((issue) => issue.message).join('; '));
  return {
    merchants: result.data.MERCHANTS_GRPC_ADDRESS,
    payments: result.data.PAYMENTS_GRPC_ADDRESS,
    ledger: result.data.LEDGER_GRPC_ADDRESS,
    webhookDispatcher: result.data.WEBHOOK_DISPATCHER_GRPC_ADDRESS,
    payouts: result.data.PAYOUTS_GRPC_ADDRESS,
    simulatorUrl: result.data.SIMULATOR_URL,
  };
}

/** Where the local stack keeps the certificates it makes on its first start (scripts/stack). */
export const LOCAL_TLS_DIRECTORY = path.resolve(__dirname, '../../..', '.sika', 'tls');

/**
 * The CLI's own certificate (identity `cli`, which the services' allowlists name for operator methods) and
 * the internal CA, from GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE, by default the local stack's; a file
 * that cannot be read or used is the environment's fault (exit 2).
 */
export function readGrpcTls(env: NodeJS.ProcessEnv, localDirectory = LOCAL_TLS_DIRECTORY): GrpcTls {
  try {
    return loadGrpcTls({
      GRPC_TLS_CERT_FILE: env.GRPC_TLS_CERT_FILE || path.join(localDirectory, 'cli.crt'),
      GRPC_TLS_KEY_FILE: env.GRPC_TLS_KEY_FILE || path.join(localDirectory, 'cli.key'),
      GRPC_TLS_CA_FILE: env.GRPC_TLS_CA_FILE || path.join(localDirectory, 'ca.crt'),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ArgumentError(
      error.problems.map(({ variable, problem }) => `${variable} ${problem}`).join('; '),
    );
  }
}
