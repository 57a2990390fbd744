import { WebhookEventsList, type WebhookEvent } from './webhook';

/** What a callback's raw body holds: its events, or why it is not a WebhookEventsList Sika can apply. */
export type CallbackBody =
  | { ok: true; events: WebhookEvent[] }
  | { ok: false; problem: 'invalid_json'; cause: unknown }
  | { ok: false; problem: 'invalid_field'; message: string; param: string };

/** XOF has no decimals: a callback amount must be a whole, safe number to become an int64. */
export function isWholeAmount(montant: number): boolean {
  return Number.isSafeInteger(montant) && montant >= 0;
}

/**
 * A callback's body (the bytes X-Signature was checked over) as a WebhookEventsList with whole XOF amounts;
 * otherwise the first bad field, by its path in the body.
 */
export function parseCallbackBody(rawBody: Buffer): CallbackBody {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch (cause) {
    return { ok: false, problem: 'invalid_json', cause };
  }
  const parsed = WebhookEventsList.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: 'invalid_field',
      message: `Invalid callback body: ${issue?.message ?? 'unexpected shape'}.`,
      param: issue?.path.join('.') || 'body',
    };
  }
  const index = parsed.data.data.findIndex((event) => !isWholeAmount(event.montant));
  if (index >= 0) {
    return {
      ok: false,
      problem: 'invalid_field',
      message: 'montant must be a whole number of XOF.',
      param: `data.${index}.montant`,
    };
  }
  return { ok: true, events: parsed.data.data };
}
