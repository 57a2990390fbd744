import { invalidParamsOf, PaiementImmediatConfirmationRequest, type Paiement } from '@sika/pispi';
import type { Clock, Logger } from '@sika/platform';

import { invalidParams, notFound, ProblemError } from '../domain/problem';
import { confirmVirement, toVirementPaiement } from '../domain/virement';
import type { VirementOptions } from './create-virement';
import type { VirementRepository } from './ports';

/**
 * `PUT /paiements/{txId}/confirmations` after a name lookup: `decision: true` sends the transfer (200 with
 * it), `false` drops it (204, answered null). A transfer already decided is 403, an unknown one 404.
 */
export class ConfirmVirement {
  constructor(
    private readonly virements: VirementRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: VirementOptions,
  ) {}

  async execute(clientId: string, txId: string, body: unknown): Promise<Paiement | null> {
    const parsed = PaiementImmediatConfirmationRequest.safeParse(body);
    if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
    const { decision } = parsed.data;
    const now = this.clock.now();
    const changed = await this.virements.change(clientId, txId, (record) =>
      confirmVirement(record, decision, now, this.options.bankDelayMs),
    );
    if (changed === null) throw notFound();
    if (changed === 'forbidden') {
      throw new ProblemError(403, 'La décision sur ce paiement a déjà été prise');
    }
    this.logger.info({ tx_id: txId, decision, statut: changed.statut }, 'virement confirmation');
    if (changed.outcomeDueAt) this.options.onAnswerScheduled(changed.outcomeDueAt);
    return decision ? toVirementPaiement(changed) : null;
  }
}
