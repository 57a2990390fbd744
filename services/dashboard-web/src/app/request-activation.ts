import type { ActivationDetails, Peers } from './ports';

/**
 * The merchant asks to go live; merchants validates the details and keeps the request for the operator's
 * review (`sika-ops merchant:approve`). The live payout account comes after the approval: registering one
 * looks its holder's name up at the participant bank, which nobody may do before Sika has checked the business.
 */
export class RequestActivation {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(merchantId: string, details: ActivationDetails): Promise<void> {
    await this.dependencies.peers.merchants.requestActivation(merchantId, details);
  }
}
