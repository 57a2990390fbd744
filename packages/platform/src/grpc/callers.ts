import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

import type { SikaIdentity } from './tls';

/**
 * Who may call each method of a service, keyed like its ts-proto `XServiceServer` (lowerCamel method
 * names), so that the type checker asks for an entry for every method:
 *
 *   export const LEDGER_CALLERS = { reservePayout: ['payouts'], … } satisfies GrpcCallers<LedgerServiceServer>;
 *
 * Declared once per service, in its transport/grpc layer; the server refuses anyone else with
 * PERMISSION_DENIED before the handler runs.
 */
export type GrpcCallers<Server> = {
  readonly [Method in keyof Server as string extends Method ? never : Method]: readonly SikaIdentity[];
};

/** The untyped form startGrpcServer takes (a GrpcCallers of any service). */
export type MethodCallers = Readonly<Record<string, readonly SikaIdentity[]>>;

/**
 * Every method of the definition with its callers; throws at start when one has none, so that a method added
 * to a service without deciding who may call it is never served.
 */
export function callersByMethod(
  definition: ServiceDefinition,
  callers: MethodCallers,
): Map<string, readonly SikaIdentity[]> {
  const byMethod = new Map<string, readonly SikaIdentity[]>();
  for (const [name, method] of Object.entries(definition) as [string, MethodDefinition<unknown, unknown>][]) {
    const allowed = Object.hasOwn(callers, name) ? callers[name] : undefined;
    if (allowed === undefined) throw new Error(`no callers declared for ${method.path}`);
    byMethod.set(name, allowed);
  }
  return byMethod;
}
