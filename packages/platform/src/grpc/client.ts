import { Metadata } from '@grpc/grpc-js';
import type {
  CallOptions,
  ChannelCredentials,
  Client,
  ClientOptions,
  ClientUnaryCall,
  ServiceDefinition,
  ServiceError,
} from '@grpc/grpc-js';

import { currentContext } from '../context';
import { toAppError } from '../errors';
import { fromServiceError } from './error-mapping';
import { REQUEST_ID_METADATA_KEY } from './request-metadata';
import { channelCredentials, type GrpcTls } from './tls';

/**
 * The last (most complete) overload of a ts-proto grpc-js client method; conditional types read the last
 * overload, which is exactly this one.
 */
type UnaryClientMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Response) => void,
) => ClientUnaryCall;

export type RequestOf<Method> =
  Method extends UnaryClientMethod<infer Request, infer _Response> ? Request : never;
export type ResponseOf<Method> =
  Method extends UnaryClientMethod<infer _Request, infer Response> ? Response : never;

/** The names of a client's unary methods (Client's own methods, such as close, do not match). */
export type UnaryMethodName<C extends Client> = {
  [K in keyof C]: C[K] extends UnaryClientMethod<infer _Request, infer _Response> ? K : never;
}[keyof C] &
  string;

export interface GrpcCallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
}

/** The deadline used when neither the call nor the client sets one. */
export const DEFAULT_DEADLINE_MS = 5_000;

function deadlineFor(deadlineMs: number): Date {
  const own = new Date(Date.now() + deadlineMs);
  // Waiting past the deadline of the call being served is useless: its caller will have given up.
  const inherited = currentContext()?.deadline;
  return inherited !== undefined && inherited < own ? inherited : own;
}

function outgoingMetadata(): Metadata {
  const metadata = new Metadata();
  const requestId = currentContext()?.requestId;
  if (requestId !== undefined) metadata.set(REQUEST_ID_METADATA_KEY, requestId);
  return metadata;
}

/**
 * Calls one unary method as a promise: deadline set, request id forwarded, and a failure turned back into
 * the AppError thrown on the server (service_unavailable when the server could not be reached in time).
 */
export function unary<C extends Client, K extends UnaryMethodName<C>>(
  client: C,
  method: K,
  request: RequestOf<C[K]>,
  { deadlineMs = DEFAULT_DEADLINE_MS }: GrpcCallOptions = {},
): Promise<ResponseOf<C[K]>> {
  const call = client[method] as UnaryClientMethod<RequestOf<C[K]>, ResponseOf<C[K]>>;
  return new Promise((resolve, reject) => {
    try {
      call.call(
        client,
        request,
        outgoingMetadata(),
        { deadline: deadlineFor(deadlineMs) },
        (error, response) => {
          if (error) reject(fromServiceError(error));
          else resolve(response);
        },
      );
    } catch (error) {
      // grpc-js throws synchronously for misuse (e.g. a closed client): callers still get an AppError.
      reject(toAppError(error));
    }
  });
}

/** Every unary method of a ts-proto client, as `(request, options?) => Promise<response>`. */
export type PromiseClient<C extends Client> = {
  [K in UnaryMethodName<C>]: (
    request: RequestOf<C[K]>,
    options?: GrpcCallOptions,
  ) => Promise<ResponseOf<C[K]>>;
};

export type GrpcClient<C extends Client> = PromiseClient<C> & {
  /** The underlying grpc-js client, for what the promise methods do not cover. */
  readonly raw: C;
  close(): void;
};

/** The constructor ts-proto generates as `XServiceClient` (outputServices=grpc-js). */
export interface GrpcClientConstructor<C extends Client> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): C;
  service: ServiceDefinition;
}

export interface GrpcClientOptions {
  /** Default deadline of every call made through this client. */
  deadlineMs: number;
  /** The caller's certificate, presented to the server, and the CA the server's certificate must come from. */
  tls: GrpcTls;
  channelOptions?: Partial<ClientOptions>;
}

/** A client for `address` (`host:port`) whose unary methods return promises. Channels connect lazily. */
export function createGrpcClient<C extends Client>(
  ClientConstructor: GrpcClientConstructor<C>,
  address: string,
  { deadlineMs, tls, channelOptions }: GrpcClientOptions,
): GrpcClient<C> {
  const raw = new ClientConstructor(address, channelCredentials(tls), channelOptions);
  const methods: Record<string, (request: unknown, options?: GrpcCallOptions) => Promise<unknown>> = {};
  for (const [name, definition] of Object.entries(ClientConstructor.service)) {
    if (definition.requestStream || definition.responseStream) continue;
    const methodName = name as UnaryMethodName<C>;
    methods[name] = (request, options = {}) =>
      unary(raw, methodName, request as RequestOf<C[typeof methodName]>, { deadlineMs, ...options });
  }
  return { ...(methods as PromiseClient<C>), raw, close: () => raw.close() };
}
