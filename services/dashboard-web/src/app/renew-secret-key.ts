import { AppError } from '@sika/platform';

import type { Peers } from './ports';
import type { Scope } from './scope';

/**
 * A new secret key for the mode, the previous one refused from this instant (merchants revokes it in the same
 * transaction). Only behind an explicit confirmation: the merchant's running integration stops working.
 */
export class RenewSecretKey {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(scope: Scope, confirmed: boolean): Promise<string> {
    if (!confirmed) {
      throw new AppError('parameter_missing', 'Confirm that the current key stops working at once.', {
        param: 'confirm',
      });
    }
    return this.dependencies.peers.merchants.renewKey(scope);
  }
}
