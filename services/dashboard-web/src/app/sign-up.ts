import { type Clock, newId } from '@sika/platform';

import { checkBusinessName, checkEmail, checkNewPassword } from '../domain/credentials';
import type { AccountStore, PasswordHasher, Peers, SignUpGuard } from './ports';

export type SignUpResult = { outcome: 'received' } | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * A new merchant and the person who runs it: the merchant is created by the merchants service (as the
 * CLI's `merchant:create` does), then the account here; the address is sent a welcome email. The answer is
 * the same whether the address already has an account or not (no session, no key): the address's owner is
 * told the rest by email ("someone tried to sign up with your address"), so the form cannot tell anyone
 * else who has an account. Both paths hash the password, the cost that dominates the answer's time.
 */
export class SignUp {
  constructor(
    private readonly dependencies: {
      store: AccountStore;
      hasher: PasswordHasher;
      peers: Pick<Peers, 'merchants'>;
      guard: SignUpGuard;
      clock: Clock;
    },
  ) {}

  async execute(input: {
    businessName: string;
    email: string;
    password: string;
    address: string;
  }): Promise<SignUpResult> {
    const { store, hasher, peers, guard, clock } = this.dependencies;
    const businessName = checkBusinessName(input.businessName);
    const email = checkEmail(input.email);
    const password = checkNewPassword(input.password);
    // Counted once the form is valid, before the hash and the merchant that each sign-up costs.
    const admission = await guard.admit(input.address);
    if (admission.kind === 'limited')
      return { outcome: 'limited', retryAfterSeconds: admission.retryAfterSeconds };
    const existing = await store.findUserByEmail(email);
    const passwordHash = await hasher.hash(password);
    if (existing !== undefined) {
      await this.tell(existing.merchantId, email, 'sign_up_attempt');
      return { outcome: 'received' };
    }
    const { merchantId } = await peers.merchants.create(businessName);
    // A concurrent sign-up with the same address can win between the check and here: its merchant then
    // stays without an account, which nobody can reach and which holds no money; the winner's owner is told.
    const created = await store.createUser({
      id: newId('usr'),
      merchantId,
      email,
      passwordHash,
      createdAt: clock.now(),
    });
    const owner = created ? undefined : await store.findUserByEmail(email);
    await this.tell(owner?.merchantId ?? merchantId, email, created ? 'welcome' : 'sign_up_attempt');
    return { outcome: 'received' };
  }

  /** Recorded after the account (a lost welcome changes nothing on the account); it leaves at once. */
  private async tell(merchantId: string, email: string, kind: 'welcome' | 'sign_up_attempt'): Promise<void> {
    await this.dependencies.peers.merchants.recordEmail({
      merchantId,
      to: email,
      kind,
      livemode: false,
      sendAfterSeconds: 0,
    });
  }
}
