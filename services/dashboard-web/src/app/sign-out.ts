import { tokenDigest } from '../domain/secret-token';
import type { AccountStore } from './ports';

/** Ends the session at once, server-side: the cookie alone no longer opens anything. */
export class SignOut {
  constructor(private readonly dependencies: { store: AccountStore }) {}

  async execute(token: string | undefined): Promise<void> {
    if (token !== undefined && token.length > 0)
      await this.dependencies.store.deleteSession(tokenDigest(token));
  }
}
