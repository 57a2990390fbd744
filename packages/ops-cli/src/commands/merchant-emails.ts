import { merchantsV1 } from '@sika/contracts';

import type { Services } from '../services';

export interface EmailView {
  email_id: string;
  merchant_id: string;
  to: string;
  kind: string;
  livemode: boolean;
  status: string;
  attempts: number;
  created_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  subject: string;
  body: string;
}

/** `EMAIL_KIND_PAYOUT_ACCOUNT_SET` → `payout_account_set`: the enum's name without its prefix. */
const nameOf = (names: Record<number, string>, value: number, prefix: string): string =>
  (names[value] ?? String(value)).replace(prefix, '').toLowerCase();

/** The emails recorded for the merchant (or every merchant), most recent first, and whether each left. */
export async function listEmails(
  services: Pick<Services, 'listEmails'>,
  { merchantId, limit }: { merchantId: string | undefined; limit: number },
): Promise<{ emails: EmailView[] }> {
  const emails = await services.listEmails({ merchantId: merchantId ?? '', limit });
  return {
    emails: emails.map((email) => ({
      email_id: email.id,
      merchant_id: email.merchantId,
      to: email.to,
      kind: nameOf(merchantsV1.EmailKind, email.kind, 'EMAIL_KIND_'),
      livemode: email.livemode,
      status: nameOf(merchantsV1.EmailStatus, email.status, 'EMAIL_STATUS_'),
      attempts: email.attempts,
      created_at: email.createdAt?.toISOString() ?? null,
      sent_at: email.sentAt?.toISOString() ?? null,
      last_error: email.lastError ?? null,
      subject: email.subject,
      body: email.body,
    })),
  };
}

export function describeEmails({ emails }: { emails: EmailView[] }): string {
  if (emails.length === 0) return 'No emails.';
  return emails
    .map(
      (email) =>
        `${email.created_at ?? '?'}  ${email.email_id}  ${email.merchant_id}  ${email.status}` +
        `${email.last_error === null ? '' : ` (${email.last_error})`}\n` +
        `  to ${email.to} (${email.kind}, ${email.livemode ? 'live' : 'test'}): ${email.subject}`,
    )
    .join('\n');
}
