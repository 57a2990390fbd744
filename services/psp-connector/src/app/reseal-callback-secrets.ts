import type { Logger } from '@sika/platform';

import { MODES, type Mode } from '../domain/mode';
import type { PispiWebhookStore, SecretSealing } from './ports';

/**
 * Seals every stored callback secret with the current CALLBACK_SECRET_KEY: a clear one (stored by a version
 * before sealing) and one sealed by a previous key alike. Under each mode's registration lock, so that a
 * registration being replaced is never sealed from its old value. Idempotent: run at every start, and by
 * `reseal-callback-secrets` after a key rotation (then the previous key can be dropped).
 */
export class ResealCallbackSecrets {
  constructor(private readonly deps: { webhooks: PispiWebhookStore; logger: Logger }) {}

  async execute(): Promise<Record<Mode, SecretSealing>> {
    const result = {} as Record<Mode, SecretSealing>;
    for (const mode of MODES) {
      result[mode] = await this.deps.webhooks.withRegistrationLock(mode, (stored) => stored.reseal(mode));
      if (result[mode] === 'sealed' || result[mode] === 'resealed') {
        this.deps.logger.info({ mode, sealing: result[mode] }, 'callback secret sealed with the current key');
      }
    }
    return result;
  }
}
