import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What follows one request through every async hop of a process: the HTTP middleware and the gRPC server
 * wrapper open it, the logger and the gRPC client read it, so no function has to pass ids around.
 */
export interface RequestContext {
  readonly requestId: string;
  /** The deadline of the incoming gRPC call, so outgoing calls never wait longer than the caller will. */
  readonly deadline?: Date;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

const VALID_REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Request ids arriving from outside (HTTP headers, gRPC metadata) are reused only when they look like ids:
 * anything else could inject text into logs or response headers.
 */
export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_REQUEST_ID.test(value);
}
