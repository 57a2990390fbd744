import {
  invalidParamsOf,
  PaiementImmediatConfirmationRequest,
  type PaiementImmediatConfirmationReponse,
} from '@sika/pispi';
import type { Clock, Logger } from '@sika/platform';

import { invalidParams, notFound, ProblemError } from '../domain/problem';
import { confirmVirement, toConfirmationReponse } from '../domain/virement';
import type { VirementOptions } from './create-virement';
import type { VirementRepository } from './ports';

/**
 * `PUT /paiements/{txId}/confirmations` after a name lookup: `decision: true` sends the transfer (200 with
 * it), `false` drops it (204, answered null). The same decision again is answered as the transfer stands; the
 * opposite one, or any after the 24 hours, is 403; an unknown transfer 404.
 */
export class ConfirmVirement {
  constructor(
    private readonly virements: VirementRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: VirementOptions,
  ) {}

  async execute(
    clientId: string,
    txId: string,
    body: unknown,
  ): Promise<PaiementImmediatConfirmationReponse | null> {
    const parsed = PaiementImmediatConfirmationRequest.safeParse(body);
    if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
    const { decision } = parsed.data;
    const now = this.clock.now();
    const result = await this.virements.confirm(clientId, txId, (record) =>
      confirmVirement(record, decision, now, this.options.bankDelayMs),
    );
    if (result === null) throw notFound();
    if (result.kind === 'forbidden') {
      this.logger.info({ tx_id: txId, decision, detail: result.detail }, 'virement confirmation refused');
      throw new ProblemError(403, result.detail);
    }
    const { record, changed } = result;
    this.logger.info({ tx_id: txId, decision, changed, statut: record.statut }, 'virement confirmation');
    if (changed && record.outcomeDueAt) this.options.onAnswerScheduled(record.outcomeDueAt);
    return decision ? toConfirmationReponse(record) : null;
  }
}
