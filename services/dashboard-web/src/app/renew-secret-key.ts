import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';

import type { Notified } from './change-notice';
import type { Peers } from './ports';

/** When the previous key may stop, in seconds after the renewal: the choices the keys page offers. */
export const KEY_OVERLAP_CHOICES = [0, 3_600, 86_400, 259_200, 604_800] as const;
export type KeyOverlap = (typeof KEY_OVERLAP_CHOICES)[number];

/** The overlap a form field names, if it is one of the choices. */
export function keyOverlapOf(text: string): KeyOverlap | undefined {
  return KEY_OVERLAP_CHOICES.find((choice) => String(choice) === text);
}

/**
 * A new secret key for the mode; the previous one is refused from this instant, or from the end of the
 * overlap the merchant chose (up to 7 days, so that its servers switch without an outage). Only behind an
 * explicit confirmation: the merchant's running integration stops working when the previous key does. The
 * account's owner is told by email, recorded by merchants in the renewal's own transaction (the one change
 * whose service also keeps the emails, so no ChangeNotice is needed).
 */
export class RenewSecretKey {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(scope: Scope, notified: Notified, confirmed: boolean, overlap: string): Promise<string> {
    const expirePreviousAfterSeconds = keyOverlapOf(overlap);
    if (expirePreviousAfterSeconds === undefined) {
      throw new AppError('parameter_invalid', 'Choose when the current key stops.', {
        param: 'expire_previous',
      });
    }
    if (!confirmed) {
      throw new AppError('parameter_missing', 'Confirm that the current key stops working.', {
        param: 'confirm',
      });
    }
    return this.dependencies.peers.merchants.renewKey(scope, expirePreviousAfterSeconds, notified.email);
  }
}
