import { GATEWAY_URL } from './environment';

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
  options: { body?: unknown; idempotencyKey?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await fetch(`${GATEWAY_URL}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}
