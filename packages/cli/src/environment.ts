import { z } from 'zod';

import { ArgumentError } from './arguments';

/** Local defaults: the port table of the README (merchants 50051, webhook-dispatcher 50055). */
export const DEFAULT_ADDRESSES = {
  MERCHANTS_GRPC_ADDRESS: '127.0.0.1:50051',
  WEBHOOK_DISPATCHER_GRPC_ADDRESS: '127.0.0.1:50055',
} as const;

/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

const address = (variable: string) =>
  z.string().refine((value) => {
    const match = HOST_PORT.exec(value);
    return match !== null && Number(match[2]) > 0 && Number(match[2]) <= 65_535;
  }, `${variable} must be host:port, e.g. 127.0.0.1:50051`);

const environmentSchema = z.object({
  MERCHANTS_GRPC_ADDRESS: address('MERCHANTS_GRPC_ADDRESS').default(DEFAULT_ADDRESSES.MERCHANTS_GRPC_ADDRESS),
  WEBHOOK_DISPATCHER_GRPC_ADDRESS: address('WEBHOOK_DISPATCHER_GRPC_ADDRESS').default(
    DEFAULT_ADDRESSES.WEBHOOK_DISPATCHER_GRPC_ADDRESS,
  ),
});

export interface ServiceAddresses {
  merchants: string;
  webhookDispatcher: string;
}

/** Where the services answer; an empty variable counts as unset. Wrong values are the caller's (exit 2). */
export function readAddresses(env: NodeJS.ProcessEnv): ServiceAddresses {
  const result = environmentSchema.safeParse({
    MERCHANTS_GRPC_ADDRESS: env.MERCHANTS_GRPC_ADDRESS || undefined,
    WEBHOOK_DISPATCHER_GRPC_ADDRESS: env.WEBHOOK_DISPATCHER_GRPC_ADDRESS || undefined,
  });
  if (!result.success) throw new ArgumentError(result.error.issues.map((issue) => issue.message).join('; '));
  return {
    merchants: result.data.MERCHANTS_GRPC_ADDRESS,
    webhookDispatcher: result.data.WEBHOOK_DISPATCHER_GRPC_ADDRESS,
  };
}
