import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';

import type { AccountEmailKind, Peers } from './ports';

/** Who is told: the signed-in account's address. */
export interface Notified {
  email: string;
}

/**
 * Tells the account's owner of a sensitive change by email (merchants' outbox of emails). The change commits
 * in another service (payouts, webhook-dispatcher), so no transaction holds both: the email is
 * recorded first, held for longer than the change's call may take, and withdrawn only when the service
 * refused the change (a 4xx: nothing changed). Success, a timeout or a crash leave it to go out, so an email
 * is never lost when the change committed; at worst one tells of a change that did not happen. Without the
 * record (merchants unreachable) the change is not attempted.
 */
export class ChangeNotice {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'>; holdSeconds: number }) {}

  async around<T>(
    scope: Scope,
    notified: Notified,
    kind: AccountEmailKind,
    change: () => Promise<T>,
  ): Promise<T> {
    const { merchants } = this.dependencies.peers;
    const emailId = await merchants.recordEmail({
      merchantId: scope.merchantId,
      to: notified.email,
      kind,
      livemode: scope.livemode,
      sendAfterSeconds: this.dependencies.holdSeconds,
    });
    try {
      return await change();
    } catch (error) {
      if (error instanceof AppError && error.catalogEntry.httpStatus < 500) {
        // Best effort: an email that could not be withdrawn tells of a change that was only submitted.
        await merchants.cancelEmail(emailId).catch(() => undefined);
      }
      throw error;
    }
  }
}
