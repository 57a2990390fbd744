import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../app/ports';

/** Kept in the attempt log: enough to tell a refused connection from a DNS failure, never a stack. */
const MAX_ERROR_LENGTH = 200;

/**
 * POSTs with Node's fetch. Redirects are not followed (a 3xx is a failed attempt, like any non-2xx), and the
 * answer's body is discarded unread: only the status matters.
 */
export class FetchWebhookSender implements WebhookSender {
  async post(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<SendResult> {
    const startedAt = performance.now();
    const elapsed = () => performance.now() - startedAt;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers,
        redirect: 'manual',
        signal: deadline,
      });
      const durationMs = elapsed();
      await response.body?.cancel().catch(() => undefined);
      return { statusCode: response.status, durationMs };
    } catch (error) {
      const durationMs = elapsed();
      // Asked of the signal rather than of the error, whose class may come from another realm.
      if (deadline.aborted) {
        return { error: `timeout after ${timeoutMs} ms`, durationMs };
      }
      return { error: describe(error).slice(0, MAX_ERROR_LENGTH), durationMs };
    }
  }
}

/**
 * fetch reports network failures as `TypeError: fetch failed` with the real reason in `cause`. Read by shape,
 * not instanceof: errors from Node's fetch may belong to another realm (e.g. under a test runner).
 */
function describe(error: unknown): string {
  const { message, cause } = (error ?? {}) as {
    message?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  if (cause !== undefined && cause !== null && typeof cause.message === 'string') {
    return typeof cause.code === 'string' ? `${cause.code}: ${cause.message}` : cause.message;
  }
  return typeof message === 'string' ? message : String(error);
}
