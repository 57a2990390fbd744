import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** The request as the callback route sees it: its body, unparsed. */
export interface RequestWithRawBody extends IncomingMessage {
  rawBody?: Buffer;
  rawBodyTooLarge?: boolean;
}

/**
 * X-Signature is an HMAC of the exact bytes the scheme sent, but createHttpApp parses JSON bodies before any
 * route runs, and re-serializing the parsed object would not give the same bytes. So for paths under
 * `pathPrefix` this wrapper reads the body first and keeps it as `rawBody`; the JSON parser then skips the
 * request, since its body has been read. It never answers by itself: the route decides (too large → 413).
 */
export function captureRawBody(
  app: RequestListener,
  options: { pathPrefix: string; limitBytes: number },
): RequestListener {
  return (request: RequestWithRawBody, response: ServerResponse) => {
    if (request.method !== 'POST' || !request.url?.startsWith(options.pathPrefix)) {
      app(request, response);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= options.limitBytes) chunks.push(chunk);
    });
    request.once('end', () => {
      if (size > options.limitBytes) request.rawBodyTooLarge = true;
      else request.rawBody = Buffer.concat(chunks);
      app(request, response);
    });
    request.once('error', () => app(request, response));
  };
}
