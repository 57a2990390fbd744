import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../app/ports';
import { describeNetworkError } from './network-error';

/**
 * How long an idle connection to an endpoint stays open for the next delivery: under the 5 s keep-alive of
 * Node's and many other servers, so the endpoint rarely closes one as it is reused. A shorter `Keep-Alive:
 * timeout` from the endpoint wins.
 */
const IDLE_CONNECTION_MS = 4_000;
/** Idle connections kept per endpoint; more at once are closed when their attempt ends. */
const IDLE_CONNECTIONS_PER_ENDPOINT = 16;
/** Addresses with pools at once; beyond, the oldest is forgotten (its connections close when idle). */
const POOLED_ADDRESSES = 1_024;
/** Of an answer's body, only this much is read (and discarded) to keep the connection; a longer one closes it. */
const DRAINED_BODY_BYTES = 64 * 1024;

/**
 * A lookup that answers every name with the one address given: the connection goes where the target rules
 * checked, even if the name's DNS answer has changed since (rebinding). The URL keeps its host name, so the
 * Host header and TLS (server name and certificate check) are the name's.
 */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Errors of a kept connection the endpoint had closed meanwhile: the request never reached it whole. */
const CLOSED_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * POSTs with Node's http and https clients, on kept-alive connections: an endpoint's deliveries reuse one
 * instead of a TCP (and TLS) handshake each. Connections are pooled per vetted address, so one is reused only
 * for a delivery vetted to the address it was opened to (see pinnedLookup). A kept connection the endpoint
 * closed as it was reused is replaced by a new one, once, within the same attempt. Redirects are not followed
 * (a 3xx is a failed attempt, like any non-2xx), and the answer's body is read and discarded: only the status
 * matters.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly pools = new Map<string, http.Agent>();

  constructor(private readonly idleConnectionMs = IDLE_CONNECTION_MS) {}

  post(
    target: { url: string; address: string },
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<SendResult> {
    const startedAt = performance.now();
    const elapsed = () => performance.now() - startedAt;
    const deadline = AbortSignal.timeout(timeoutMs);
    const url = new URL(target.url);
    const send = (agent: http.Agent | false) =>
      new Promise<SendResult>((resolve) => {
        let answered = false;
        const client = url.protocol === 'https:' ? https : http;
        const request = client.request(
          url,
          {
            method: 'POST',
            headers: { ...headers, 'Content-Length': Buffer.byteLength(body, 'utf8') },
            agent,
            lookup: pinnedLookup(target.address),
            signal: deadline,
          },
          (response) => {
            answered = true;
            resolve({ statusCode: response.statusCode ?? 0, durationMs: elapsed() });
            drain(response);
          },
        );
        request.on('error', (error: NodeJS.ErrnoException) => {
          if (answered) return;
          if (request.reusedSocket && !deadline.aborted && CLOSED_CONNECTION_CODES.has(error.code ?? '')) {
            resolve(send(false));
            return;
          }
          // Asked of the signal rather than of the error, whose class may come from another realm.
          resolve(
            deadline.aborted
              ? { error: `timeout after ${timeoutMs} ms`, durationMs: elapsed() }
              : { error: describeNetworkError(error), durationMs: elapsed() },
          );
        });
        request.end(body, 'utf8');
      });
    return send(this.poolFor(url.protocol, target.address));
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const agent of this.pools.values()) agent.destroy();
    this.pools.clear();
  }

  private poolFor(protocol: string, address: string): http.Agent {
    const key = `${protocol}//${address}`;
    let agent = this.pools.get(key);
    if (agent === undefined) {
      const options = {
        keepAlive: true,
        timeout: this.idleConnectionMs,
        maxFreeSockets: IDLE_CONNECTIONS_PER_ENDPOINT,
      };
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      const oldest = this.pools.keys().next().value;
      if (this.pools.size >= POOLED_ADDRESSES && oldest !== undefined) this.pools.delete(oldest);
      this.pools.set(key, agent);
    }
    return agent;
  }
}

/** Reads the body to its end so the connection can serve the next delivery, unless it is long. */
function drain(response: http.IncomingMessage): void {
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > DRAINED_BODY_BYTES) response.destroy();
  });
  response.on('error', () => undefined);
}
