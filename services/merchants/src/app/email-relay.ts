import type { Clock, Logger } from '@sika/platform';

import { EMAIL_MAX_ATTEMPTS, emailRetryDelayMs } from '../domain/email-templates';
import type { EmailOutbox, Mailer } from './email-outbox';

const BATCH = 10;
/** Longer than any SMTP exchange of a batch: past it, another relay takes a lost email again. */
const LEASE_MS = 120_000;

/**
 * One round of the relay of emails: the due ones leave through the SMTP relay, or, when none is configured,
 * are marked `unsent` (recorded, never pretended sent). Logs name the email and its kind, never its address
 * or text. True when a full batch suggests more are waiting.
 */
export function emailRelayRound(dependencies: {
  outbox: EmailOutbox;
  mailer: Mailer | undefined;
  clock: Clock;
  logger: Logger;
}): () => Promise<boolean> {
  const { outbox, mailer, clock, logger } = dependencies;
  return async () => {
    const now = clock.now();
    if (mailer === undefined) {
      const count = await outbox.markDueUnsent(now);
      if (count > 0)
        logger.warn({ count }, 'emails recorded as unsent: no SMTP relay is configured (SMTP_URL)');
      return false;
    }
    const due = await outbox.claimDue(now, new Date(now.getTime() + LEASE_MS), BATCH);
    for (const email of due) {
      try {
        await mailer.send({ to: email.to, subject: email.subject, text: email.body });
        await outbox.markSent(email.id, clock.now());
        logger.info({ email_id: email.id, kind: email.kind }, 'email sent');
      } catch (error) {
        const attempts = email.attempts + 1;
        const retryAt =
          attempts >= EMAIL_MAX_ATTEMPTS
            ? null
            : new Date(clock.now().getTime() + emailRetryDelayMs(attempts));
        const reason = error instanceof Error ? error.message : String(error);
        await outbox.markRefused(email.id, reason.slice(0, 500), retryAt);
        // The reason may quote the address: operators read it with the email (sika-ops merchant:emails).
        logger.warn({ email_id: email.id, kind: email.kind, attempts }, 'email refused by the SMTP relay');
      }
    }
    return due.length === BATCH;
  };
}
