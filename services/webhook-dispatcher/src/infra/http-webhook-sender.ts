import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../app/ports';
import { describeNetworkError } from './network-error';

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

/**
 * POSTs with Node's http and https clients, one connection per attempt (no pool: a pooled socket would skip
 * the pinned lookup). Redirects are not followed (a 3xx is a failed attempt, like any non-2xx), and the
 * answer's body is discarded unread: only the status matters.
 */
export class HttpWebhookSender implements WebhookSender {
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
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body, 'utf8') },
          agent: false,
          lookup: pinnedLookup(target.address),
          signal: deadline,
        },
        (response) => {
          resolve({ statusCode: response.statusCode ?? 0, durationMs: elapsed() });
          response.destroy();
        },
      );
      request.on('error', (error) => {
        // Asked of the signal rather than of the error, whose class may come from another realm.
        resolve(
          deadline.aborted
            ? { error: `timeout after ${timeoutMs} ms`, durationMs: elapsed() }
            : { error: describeNetworkError(error), durationMs: elapsed() },
        );
      });
      request.end(body, 'utf8');
    });
  }
}
