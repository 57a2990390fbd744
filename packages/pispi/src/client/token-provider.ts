import type { Dispatcher } from 'undici';

import { CLIENT_CREDENTIALS_GRANT, TokenResponse } from '../schemas/oauth';
import { PispiNetworkError, PispiProblemError, PispiResponseError } from './errors';
import { isSuccess, send, type HttpAnswer } from './http';
import { readProblem } from './problem-body';

export interface TokenProviderOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  timeoutMs: number;
  now: () => number;
  /** See PispiClientOptions.dispatcher: the token endpoint takes the same mutual TLS. */
  dispatcher: Dispatcher;
}

/** Lifetime assumed when the answer has no expires_in (RFC 6749 leaves it to the server). */
const DEFAULT_LIFETIME_SECONDS = 60;
/** A token is renewed this long before it expires, so a request never leaves with a token about to lapse. */
const RENEWAL_MARGIN_SECONDS = 30;

/**
 * OAuth2 client-credentials tokens (RFC 6749 §4.4), cached until shortly before expiry. Concurrent callers
 * share one token request. Client id and secret go in HTTP Basic, which RFC 6749 §2.3.1 requires servers to
 * support.
 */
export class TokenProvider {
  private cached: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly options: TokenProviderOptions) {}

  async token(): Promise<string> {
    if (this.cached && this.options.now() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets `token` after the API refused it (e.g. the participant restarted and lost its sessions). */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const { tokenUrl, clientId, clientSecret, scopes, timeoutMs, now, dispatcher } = this.options;
    const form = new URLSearchParams({ grant_type: CLIENT_CREDENTIALS_GRANT });
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    const credentials = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    let answer: HttpAnswer;
    try {
      answer = await send(dispatcher, tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        timeoutMs,
      });
    } catch (error) {
      throw new PispiNetworkError('token request', error);
    }
    const { status, text } = answer;
    if (!isSuccess(status)) throw new PispiProblemError(status, readProblem(status, text), 'token request');
    const parsed = TokenResponse.safeParse(parseJson(text));
    if (!parsed.success) throw new PispiResponseError(status, 'token request', parsed.error.message);
    const lifetime = parsed.data.expires_in ?? DEFAULT_LIFETIME_SECONDS;
    const margin = Math.min(RENEWAL_MARGIN_SECONDS, lifetime / 2);
    this.cached = { token: parsed.data.access_token, renewAt: now() + (lifetime - margin) * 1000 };
    return parsed.data.access_token;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
