import { type Clock, newId } from '@sika/platform';

import { emailText, type EmailKind } from '../domain/email-templates';
import type { EmailOutbox, EmailRecord } from './email-outbox';

/** A new pending email of `kind` to `to`, recorded at `now`, due `sendAfterSeconds` later. */
export function pendingEmail(
  input: { merchantId: string; to: string; kind: EmailKind; livemode: boolean; sendAfterSeconds: number },
  now: Date,
): EmailRecord {
  return {
    id: newId('eml'),
    merchantId: input.merchantId,
    to: input.to,
    kind: input.kind,
    livemode: input.livemode,
    ...emailText(input.kind, input.livemode, now),
    status: 'pending',
    attempts: 0,
    sendAfter: new Date(now.getTime() + input.sendAfterSeconds * 1000),
    createdAt: now,
    sentAt: null,
    lastError: null,
  };
}

/**
 * Records an email to a merchant's account in the outbox of emails, to leave after `sendAfterSeconds`. The
 * text is the kind's own (domain/email-templates.ts): the caller names what happened, never the words.
 */
export class RecordEmail {
  constructor(
    private readonly dependencies: { outbox: EmailOutbox; clock: Clock; wakeRelay: (dueAt: Date) => void },
  ) {}

  async execute(input: {
    merchantId: string;
    to: string;
    kind: EmailKind;
    livemode: boolean;
    sendAfterSeconds: number;
  }): Promise<{ emailId: string }> {
    const { outbox, clock, wakeRelay } = this.dependencies;
    const email = pendingEmail(input, clock.now());
    await outbox.record(email);
    wakeRelay(email.sendAfter);
    return { emailId: email.id };
  }
}
