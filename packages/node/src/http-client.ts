import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { errorFromResponse, SikaConnectionError, type SikaResponseError } from './errors';
import { isRetryable, retryDelayMs, type Outcome } from './retry';
import { VERSION } from './version';

/** How the library calls one operation of the API. */
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  /** `generated`: a creation, sent with an Idempotency-Key (the caller's, or a new UUID) reused on retries. */
  idempotency: 'generated' | 'none';
}

/** Per-call options, overriding the client's. */
export interface RequestOptions {
  /** The Idempotency-Key of a creation; without one, the library generates a UUID. */
  idempotencyKey?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface CallSpec {
  operation: Operation;
  id?: string;
  query?: object;
  body?: object;
  options?: RequestOptions;
}

export interface HttpClientConfig {
  secretKey: string;
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
}

type Attempt =
  | { ok: true; value: unknown }
  | { ok: false; outcome: Outcome; error: SikaResponseError | SikaConnectionError };

/** One operation, tried again (same Idempotency-Key) while the failure is one worth retrying. */
export class HttpClient {
  constructor(private readonly config: HttpClientConfig) {}

  async call<T>(spec: CallSpec): Promise<T> {
    const maxRetries = spec.options?.maxRetries ?? this.config.maxRetries;
    const idempotencyKey =
      spec.operation.idempotency === 'generated' ? (spec.options?.idempotencyKey ?? randomUUID()) : undefined;
    const safe = spec.operation.method === 'GET' || idempotencyKey !== undefined;
    for (let retry = 0; ; retry += 1) {
      const attempt = await this.tryOnce(spec, idempotencyKey);
      if (attempt.ok) return attempt.value as T;
      const delay =
        retry < maxRetries && isRetryable(attempt.outcome, safe)
          ? retryDelayMs(retry + 1, attempt.outcome, Date.now(), Math.random())
          : undefined;
      if (delay === undefined) throw attempt.error;
      await sleep(delay);
    }
  }

  private async tryOnce(spec: CallSpec, idempotencyKey: string | undefined): Promise<Attempt> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.config.secretKey}`,
      Accept: 'application/json',
      'User-Agent': `sika-node/${VERSION} node/${process.version}`,
    };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(this.urlOf(spec), {
        method: spec.operation.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: AbortSignal.timeout(spec.options?.timeoutMs ?? this.config.timeoutMs),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      return {
        ok: false,
        outcome: { kind: 'network' },
        error: new SikaConnectionError(
          timedOut
            ? `No answer from ${this.config.baseUrl} within the timeout.`
            : `Could not reach ${this.config.baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}.`,
          { cause },
        ),
      };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      if (response.ok) {
        return {
          ok: false,
          outcome: { kind: 'network' },
          error: new SikaConnectionError('The answer was cut or was not JSON.', { cause }),
        };
      }
    }
    if (response.ok) return { ok: true, value: body };
    const error = errorFromResponse(response.status, body, response.headers);
    return {
      ok: false,
      outcome: {
        kind: 'answer',
        status: response.status,
        code: error.code,
        retryAfter: response.headers.get('retry-after'),
      },
      error,
    };
  }

  private urlOf(spec: CallSpec): string {
    const path = spec.operation.path.replace('{id}', () => encodeURIComponent(spec.id ?? ''));
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, '')}${path}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }
}
