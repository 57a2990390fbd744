import type { EmailOutbox, EmailRecord } from './email-outbox';

export const EMAIL_LIST_DEFAULT = 20;

/** The emails operators read: one merchant's, or every merchant's, most recent first. */
export class ListEmails {
  constructor(private readonly dependencies: { outbox: EmailOutbox }) {}

  execute({ merchantId, limit }: { merchantId: string | undefined; limit: number }): Promise<EmailRecord[]> {
    return this.dependencies.outbox.list(merchantId, limit === 0 ? EMAIL_LIST_DEFAULT : limit);
  }
}
