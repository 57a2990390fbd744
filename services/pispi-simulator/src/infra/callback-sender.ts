import { SIGNATURE_HEADER } from '@sika/pispi';

import type { CallbackSender } from '../app/ports';

/** Callbacks over HTTP: JSON body, X-Signature header, bounded by a timeout; any 2xx is a delivery. */
export class HttpCallbackSender implements CallbackSender {
  constructor(private readonly timeoutMs: number) {}

  async send(url: string, body: string, signature: string): Promise<string | undefined> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel();
      return response.ok ? undefined : `HTTP ${response.status}`;
    } catch (error) {
      const failure = error as { name?: string; message?: string; cause?: { message?: string } };
      if (failure.name === 'TimeoutError') return `no answer within ${this.timeoutMs} ms`;
      return [failure.message, failure.cause?.message].filter(Boolean).join(': ') || String(error);
    }
  }
}
