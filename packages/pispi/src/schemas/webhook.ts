import { z } from 'zod';

import { RefDocType, WebhooksEvents } from './enums';

const webhookFields = {
  /** Where the participant POSTs the notifications (the document's `format: uri`; http(s) only here). */
  callbackUrl: z.url({ protocol: /^https?$/ }),
  /** Only events about this account alias; every alias when absent. */
  alias: z.string().min(1).optional(),
  /** Only these event codes; every event when absent. */
  events: z.array(WebhooksEvents).optional(),
};

/** `POST /webhooks` body. Strict, like every request body the simulator validates. */
export const WebhookCreationRequest = z.strictObject(webhookFields);
export type WebhookCreationRequest = z.infer<typeof WebhookCreationRequest>;

/** `POST /webhooks` answer (201): the request plus id, date and the HMAC secret, which is sent only here. */
export const WebhookCreationResponse = z.object({
  ...webhookFields,
  id: z.string().optional(),
  dateCreation: z.string().optional(),
  secret: z.string().optional(),
});
export type WebhookCreationResponse = z.infer<typeof WebhookCreationResponse>;

/** `GET /webhooks/{id}` answer: a registered webhook, without its secret. */
export const WebhookData = z.object({
  id: z.string().optional(),
  dateCreation: z.string().optional(),
  ...webhookFields,
});
export type WebhookData = z.infer<typeof WebhookData>;

/** One notified event. For a request-to-pay Sika sent, `txId` is Sika's and `alias` is Sika's payee alias. */
export const WebhookEvent = z.object({
  evCode: WebhooksEvents,
  /** When it happened; for an irrevocable transfer, the moment of irrevocability. */
  evDate: z.iso.datetime({ offset: true }),
  txId: z.string(),
  /** End-to-end id of the transfer (PAIEMENT_*) or of the request-to-pay (RTP_*). */
  end2endId: z.string(),
  instructionId: z.string().optional(),
  montant: z.number(),
  /** Name of the payer or payee, depending on the event. */
  client: z.string().max(35).optional(),
  alias: z.string().optional(),
  /** Free text for payments, otherwise a reason code (e.g. a rejection reason for RTP_REJETE). */
  motif: z.string().max(140).optional(),
  refDocType: RefDocType.optional(),
  refDocNumero: z.string().max(35).optional(),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Body of a callback: one or more events, signed as a whole with X-Signature. */
export const WebhookEventsList = z.object({
  data: z.array(WebhookEvent),
  meta: z.object({ total: z.number().int() }),
});
export type WebhookEventsList = z.infer<typeof WebhookEventsList>;
