import { SIGNATURE_HEADER } from '@sika/pispi';
import { Agent, request } from 'undici';

import type { CallbackSender } from '../app/ports';

/**
 * Callbacks over HTTP: JSON body, X-Signature header, bounded by a timeout; any 2xx is a delivery, a redirect
 * is not followed. undici's `request` on a keep-alive pool, not fetch: fetch's WHATWG streams showed in the
 * profiles of the money path, and every callback goes to the same few receivers.
 */
export class HttpCallbackSender implements CallbackSender {
  private readonly agent = new Agent();

  constructor(private readonly timeoutMs: number) {}

  async send(url: string, body: string, signature: string): Promise<string | undefined> {
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        dispatcher: this.agent,
      });
      // The answer's body says nothing the simulator uses, but must be read for the connection to be reused.
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return ok ? undefined : `HTTP ${response.statusCode}`;
    } catch (error) {
      const failure = error as { name?: string; message?: string; cause?: { message?: string } };
      if (failure.name === 'TimeoutError') return `no answer within ${this.timeoutMs} ms`;
      return [failure.message, failure.cause?.message].filter(Boolean).join(': ') || String(error);
    }
  }

  /** Closes the kept-alive connections, waiting for callbacks under way. */
  close(): Promise<void> {
    return this.agent.close();
  }
}
