import { verifySignature } from '@sika/pispi';
import { AppError } from '@sika/platform';

import type { Mode } from '../domain/mode';
import type { PispiWebhookAccess } from './ports';

/**
 * A callback comes from the mode's participant only if its X-Signature is the HMAC of the raw body under the
 * secret of Sika's registration in that mode: 503 before there is one, 401 `signature_invalid` otherwise.
 */
export class VerifyCallbackSignature {
  constructor(
    private readonly deps: {
      /** The mode's registration, whose secret signs its callbacks. */
      webhooks: Pick<PispiWebhookAccess, 'find'>;
    },
  ) {}

  async execute(callback: { mode: Mode; rawBody: Buffer; signature: string | undefined }): Promise<void> {
    const webhook = await this.deps.webhooks.find(callback.mode);
    if (!webhook) {
      throw new AppError(
        'service_unavailable',
        `No callback URL is registered yet for ${callback.mode} mode.`,
      );
    }
    if (!verifySignature(callback.rawBody, webhook.secret, callback.signature)) {
      throw new AppError('signature_invalid', 'The X-Signature header does not match the body.', {
        param: 'X-Signature',
      });
    }
  }
}
