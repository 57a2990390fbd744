import { randomUUID } from 'node:crypto';
import {
  invalidParamsOf,
  PaiementImmediatAvecConfirmation,
  PaiementImmediatSansConfirmation,
  type PaiementImmediatReponse,
  type PaiementImmediatRequest,
} from '@sika/pispi';
import { maskAlias, type Clock, type Logger } from '@sika/platform';

import { newEnd2EndId } from '../domain/end2end-id';
import { invalidParams } from '../domain/problem';
import { duplicateVirementReponse, receiveVirement, toPaiementImmediatReponse } from '../domain/virement';
import type { VirementRepository } from './ports';

export interface VirementOptions {
  /** How long the payee's bank takes to answer a transfer sent. */
  bankDelayMs: number;
  /** Told when a bank answer becomes due, so the worker need not wait for its next poll. */
  onAnswerScheduled: (dueAt: Date) => void;
}

/**
 * `POST /paiements`: validates the body against PaiementImmediatRequest (400 with invalid-params), then answers
 * as the participant would: REJETE DU03 for a txId this client already used, REJETE BE23 for an alias the
 * directory does not know, INITIE with the payee's name when a confirmation is asked for, else the transfer
 * leaves (ENVOYE, its bank's answer following as a callback; REJETE at once for a removed alias).
 */
export class CreateVirement {
  constructor(
    private readonly virements: VirementRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: VirementOptions,
  ) {}

  async execute(clientId: string, body: unknown): Promise<PaiementImmediatReponse> {
    const request = parse(body);
    const now = this.clock.now();
    const record = receiveVirement(request, newEnd2EndId(now), now, this.options.bankDelayMs);
    const log = { tx_id: request.txId, payee: maskAlias(request.payeAlias), montant: request.montant };
    if ((await this.virements.insert(clientId, randomUUID(), record)) === 'duplicate') {
      this.logger.info(log, 'virement rejected: duplicate txId (DU03)');
      return duplicateVirementReponse(request, newEnd2EndId(now), now);
    }
    this.logger.info(
      { ...log, statut: record.statut, statut_raison: record.statutRaison },
      'virement received',
    );
    if (record.outcomeDueAt) this.options.onAnswerScheduled(record.outcomeDueAt);
    return toPaiementImmediatReponse(record);
  }
}

/** The schema, then what the document leaves to the participant: XOF has no fractions. */
function parse(body: unknown): PaiementImmediatRequest {
  // The variant is chosen by confirmation, so that every violation is named even when confirmation is one
  // too: anything but a lookup (`confirmation: true`) is checked as a transfer sent at once.
  const isLookup =
    typeof body === 'object' && body !== null && 'confirmation' in body && body.confirmation === true;
  const parsed = (isLookup ? PaiementImmediatAvecConfirmation : PaiementImmediatSansConfirmation).safeParse(
    body,
  );
  if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
  if (!Number.isInteger(parsed.data.montant)) {
    throw invalidParams([{ name: 'montant', reason: 'XOF amounts are whole numbers' }]);
  }
  return parsed.data;
}
