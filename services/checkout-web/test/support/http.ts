/** Small HTTP helpers for talking to checkout-web as a browser would. */

export async function getPage(url: string): Promise<{ response: Response; body: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  return { response, body: await response.text() };
}

/** The alias form of the page at `pageUrl`, posted urlencoded from the page's own origin (as a browser sends it). */
export async function postAlias(
  pageUrl: string,
  alias: string,
  headers: Record<string, string> = { origin: new URL(pageUrl).origin },
): Promise<{ response: Response; body: string }> {
  const response = await fetch(`${pageUrl}/attempts`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ customer_alias: alias }).toString(),
  });
  return { response, body: await response.text() };
}

export interface ServerSentEvent {
  event: string;
  data: string;
}

/** Reads a whole event stream until the server ends it (or `timeoutMs`), returning its events in order. */
export async function readEventStream(
  url: string,
  timeoutMs = 10_000,
): Promise<{ response: Response; events: ServerSentEvent[]; retry: string | undefined }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  const events: ServerSentEvent[] = [];
  let retry: string | undefined;
  for (const block of text.split('\n\n')) {
    const fields = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
    const field = (name: string) =>
      fields.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
    retry ??= field('retry');
    const data = field('data');
    if (data !== undefined) events.push({ event: field('event') ?? 'message', data });
  }
  return { response, events, retry };
}
