import type { UserRecord } from './ports';

/** What a signed-in person acts on: their merchant, in the mode of the page. */
export interface Scope {
  merchantId: string;
  livemode: boolean;
}

export const scopeOf = (user: UserRecord, livemode: boolean): Scope => ({
  merchantId: user.merchantId,
  livemode,
});
