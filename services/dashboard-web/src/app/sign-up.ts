import { AppError, type Clock, newId } from '@sika/platform';

import { checkBusinessName, checkEmail, checkNewPassword } from '../domain/credentials';
import type { SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore, PasswordHasher, Peers } from './ports';
import { openSession } from './sessions';

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
      clock: Clock;
      lifetime: SessionLifetime;
    },
  ) {}

  async execute(input: { businessName: string; email: string; password: string }): Promise<SignedUp> {
    const { store, hasher, peers, clock } = this.dependencies;
    const businessName = checkBusinessName(input.businessName);
    const email = checkEmail(input.email);
    const password = checkNewPassword(input.password);
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
    return { sessionToken: token, merchantId, testSecretKey };
  }
}

const emailTaken = () =>
  new AppError('parameter_invalid', 'An account already uses this email address.', { param: 'email' });
