import { hash, verify } from '@node-rs/argon2';

import type { PasswordHasher } from '../app/ports';

/**
 * argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes), computed off the event loop by
 * the native module, so a sign-in does not stall other requests.
 */
export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password),
  verify: async (passwordHash, password) => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  },
};
