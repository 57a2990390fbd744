import { AppError, type Clock, newId } from '@sika/platform';

import { checkBusinessName, checkEmail, checkNewPassword } from '../domain/credentials';
import type { SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore, PasswordHasher, Peers, SignUpGuard } from './ports';
import { openSession } from './sessions';

export type SignUpResult =
  ({ outcome: 'signed_up' } & SignedUp) | { outcome: 'limited'; retryAfterSeconds: number };

export interface SignedUp {
  sessionToken: string;
  merchantId: string;
  /** The test key, shown once on the welcome page: the merchant can start integrating at once. */
  testSecretKey: string;
}

/**
 * A new merchant and the person who runs it: the merchant is created by the merchants service (as the
 * CLI's `merchant:create` does), then the account here, then a session.
 */
export class SignUp {
  constructor(
    private readonly dependencies: {
      store: AccountStore;
      hasher: PasswordHasher;
      peers: Pick<Peers, 'merchants'>;
      guard: SignUpGuard;
      clock: Clock;
      lifetime: SessionLifetime;
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
    if ((await store.findUserByEmail(email)) !== undefined) throw emailTaken();
    const passwordHash = await hasher.hash(password);
    const { merchantId, testSecretKey } = await peers.merchants.create(businessName);
    const userId = newId('usr');
    // A concurrent sign-up with the same address can win between the check and here: its merchant then
    // stays without an account, which nobody can reach and which holds no money.
    const created = await store.createUser({
      id: userId,
      merchantId,
      email,
      passwordHash,
      createdAt: clock.now(),
    });
    if (!created) throw emailTaken();
    const { token } = await openSession(this.dependencies, userId);
    return { outcome: 'signed_up', sessionToken: token, merchantId, testSecretKey };
  }
}

const emailTaken = () =>
  new AppError('parameter_invalid', 'An account already uses this email address.', { param: 'email' });
