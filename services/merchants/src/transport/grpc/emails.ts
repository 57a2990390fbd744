import { isId } from '@sika/platform';
import { merchantsV1 } from '@sika/contracts';
import { z } from 'zod';

import type { EmailRecord, EmailStatus } from '../../app/email-outbox';
import type { EmailKind } from '../../domain/email-templates';

const { EmailKind: Kind, EmailStatus: Status } = merchantsV1;

const KINDS: Record<EmailKind, merchantsV1.EmailKind> = {
  welcome: Kind.EMAIL_KIND_WELCOME,
  sign_up_attempt: Kind.EMAIL_KIND_SIGN_UP_ATTEMPT,
  payout_account_set: Kind.EMAIL_KIND_PAYOUT_ACCOUNT_SET,
  payout_account_confirmed: Kind.EMAIL_KIND_PAYOUT_ACCOUNT_CONFIRMED,
  secret_key_renewed: Kind.EMAIL_KIND_SECRET_KEY_RENEWED,
  webhook_secret_revealed: Kind.EMAIL_KIND_WEBHOOK_SECRET_REVEALED,
  webhook_secret_rolled: Kind.EMAIL_KIND_WEBHOOK_SECRET_ROLLED,
  payout_account_cooling_down: Kind.EMAIL_KIND_PAYOUT_ACCOUNT_COOLING_DOWN,
};

const KIND_NAMES = new Map(Object.entries(KINDS).map(([name, value]) => [value, name as EmailKind]));

const STATUSES: Record<EmailStatus, merchantsV1.EmailStatus> = {
  pending: Status.EMAIL_STATUS_PENDING,
  sent: Status.EMAIL_STATUS_SENT,
  unsent: Status.EMAIL_STATUS_UNSENT,
  failed: Status.EMAIL_STATUS_FAILED,
  canceled: Status.EMAIL_STATUS_CANCELED,
};

const merchantId = z.string().refine((id) => isId('mer', id), "must be a merchant id ('mer_…')");

/** What RecordEmail accepts: an address as the dashboard's sign-up checks it (no control characters). */
export const recordEmailRequest = z.object({
  merchantId,
  to: z.email().max(254),
  kind: z.enum(Kind).transform((kind, context) => {
    const name = KIND_NAMES.get(kind);
    if (name === undefined) context.addIssue({ code: 'custom', message: 'must be an email kind' });
    return name ?? 'welcome';
  }),
  livemode: z.boolean(),
  sendAfterSeconds: z.number().int().min(0).max(3600),
});

export const cancelEmailRequest = z.object({
  emailId: z.string().refine((id) => isId('eml', id), "must be an email id ('eml_…')"),
});

export const listEmailsRequest = z.object({
  merchantId: z.union([z.literal('').transform(() => undefined), merchantId]),
  limit: z.number().int().min(0).max(100),
});

export function toProtoEmail(email: EmailRecord): merchantsV1.Email {
  return {
    id: email.id,
    merchantId: email.merchantId,
    to: email.to,
    kind: KINDS[email.kind],
    livemode: email.livemode,
    subject: email.subject,
    body: email.body,
    status: STATUSES[email.status],
    attempts: email.attempts,
    createdAt: email.createdAt,
    sentAt: email.sentAt ?? undefined,
    lastError: email.lastError ?? undefined,
  };
}
