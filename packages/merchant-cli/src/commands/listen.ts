import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { SIGNATURE_HEADER, signatureHeaderFor } from '@sika/node';

import { EventWindow, type ListedEvent } from '../event-window';

/** What listen reads of an event, and forwards whole. */
export type FeedEvent = ListedEvent & { type: string };

/** The account's events, most recent first (GET /v1/events): one page from created_from, after an id. */
export type EventFeed = (query: {
  createdFrom: string | undefined;
  startingAfter: string | undefined;
  limit: number;
}) => Promise<{ data: FeedEvent[]; has_more: boolean }>;

export interface ListenOptions {
  forwardTo: string;
  /** Only these types are forwarded; all when undefined. */
  types: ReadonlySet<string> | undefined;
  secret: string;
  pollIntervalMs?: number;
}

/** A delivery's answer, as the endpoint gave it (as Sika would have counted it: 2xx within 10 s). */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The secret listen signs with: derived from the secret key, so it stays the same from one run to the next
 * (put it once in your server's environment) and changes with the key.
 */
export function listenSecret(secretKey: string): string {
  return `whsec_${createHmac('sha256', secretKey).update('sika listen').digest('hex').slice(0, 32)}`;
}

async function allPages(feed: EventFeed, createdFrom: string | undefined): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await feed({ createdFrom, startingAfter, limit: 100 });
    events.push(...page.data);
    startingAfter = page.data.at(-1)?.id;
    if (!page.has_more || startingAfter === undefined) return events;
  }
}

/** POSTs the event to the endpoint, signed as Sika signs: the endpoint's status, or why there is none. */
async function forward(event: FeedEvent, options: ListenOptions): Promise<string> {
  const body = JSON.stringify(event);
  const started = Date.now();
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [SIGNATURE_HEADER]: signatureHeaderFor(body, options.secret),
        'User-Agent': 'sika-cli (listen)',
      },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return `[${response.status}] POST ${options.forwardTo} (${Date.now() - started} ms)`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? 'no answer within 10 s'
        : (cause?.code ?? cause?.message ?? String(error));
    return `[failed] POST ${options.forwardTo}: ${reason}`;
  }
}

const timeOf = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/**
 * `sika listen --forward-to URL`: polls the account's events (deduplicated by id) and forwards each new one,
 * oldest first, printing each delivery's status. Events from before it started are not sent. Runs until
 * `signal` aborts (^C).
 */
export async function listen(
  feed: EventFeed,
  options: ListenOptions,
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const window = new EventWindow();
  window.skip((await feed({ createdFrom: undefined, startingAfter: undefined, limit: 1 })).data);
  print(`Ready! Your webhook signing secret is ${options.secret} (^C to quit)`);
  print(`Forwarding your test events to ${options.forwardTo}`);
  while (!signal.aborted) {
    let fresh: FeedEvent[] = [];
    try {
      fresh = window.take(await allPages(feed, window.createdFrom()));
    } catch (error) {
      print(
        `Could not read your events: ${error instanceof Error ? error.message : String(error)} (trying again)`,
      );
    }
    for (const event of fresh) {
      if (options.types !== undefined && !options.types.has(event.type)) continue;
      print(`${timeOf(event.created_at)}  --> ${event.type} [${event.id}]`);
      print(`${timeOf(new Date().toISOString())}  <-- ${await forward(event, options)} [${event.id}]`);
    }
    await sleep(options.pollIntervalMs ?? 1_000, undefined, { signal }).catch(() => undefined);
  }
}
