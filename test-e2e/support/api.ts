import { Agent, fetch, type Headers } from 'undici';

import { GATEWAY_URL } from './environment';

/**
 * The tests' connections to the gateway, closed after a second idle: far from the gateway's keep-alive (65 s),
 * so a connection the gateway is closing is never reused, even when timers run late on a busy machine.
 */
const GATEWAY_CONNECTIONS = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** One call to the public API with a secret key, the way a merchant's server makes it. */
export async function api<T = Record<string, unknown>>(
  key: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers, Authorization: `Bearer ${key}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await fetch(`${GATEWAY_URL}${path}`, {
    dispatcher: GATEWAY_CONNECTIONS,
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}
