import { randomUUID } from 'node:crypto';
import {
  DemandePaiementFacture,
  DemandePaiementImmediat,
  type DemandePaiementRequest,
  invalidParamsOf,
  type DemandePaiementReponse,
  type InvalidParam,
} from '@sika/pispi';
import { maskAlias, type Clock, type Logger } from '@sika/platform';

import { duplicateTxIdReponse, receiveDemande, toDemandePaiementReponse } from '../domain/demande';
import { newEnd2EndId } from '../domain/end2end-id';
import type { DemandeRepository } from './ports';
import { invalidParams } from '../domain/problem';

export interface CreateDemandeOptions {
  /** How long the simulated payer takes to answer. */
  payerDelayMs: number;
  /** Told when a payer action becomes due, so the worker need not wait for its next poll. */
  onPayerActionScheduled: (dueAt: Date) => void;
}

/**
 * `POST /demandes-paiements`: validates the body against the schema (400 with invalid-params), then answers
 * as the participant would: REJETE DU03 for a txId this client already used, REJETE BE23 for an unknown
 * alias, otherwise ENVOYE, the payer's answer following as a callback.
 */
export class CreateDemande {
  constructor(
    private readonly demandes: DemandeRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: CreateDemandeOptions,
  ) {}

  async execute(clientId: string, body: unknown): Promise<DemandePaiementReponse> {
    const request = parse(body);
    const now = this.clock.now();
    const { record, payerAction } = receiveDemande(
      request,
      newEnd2EndId(now),
      now,
      this.options.payerDelayMs,
    );
    const inserted = await this.demandes.insert(clientId, randomUUID(), record, payerAction);
    const log = { tx_id: request.txId, payer: maskAlias(request.payeurAlias) };
    if (inserted === 'duplicate') {
      this.logger.info(log, 'demande rejected: duplicate txId (DU03)');
      return duplicateTxIdReponse(request, newEnd2EndId(now), now);
    }
    this.logger.debug(
      { ...log, statut: record.statut, statut_raison: record.statutRaison },
      'demande received',
    );
    if (payerAction) this.options.onPayerActionScheduled(payerAction.dueAt);
    return toDemandePaiementReponse(record);
  }
}

/** The schema, then what this simulator does not play: confirmation round-trips and fractional XOF. */
function parse(body: unknown): DemandePaiementRequest {
  // The variant is chosen by categorie, so that every violation is named even when categorie is one too:
  // anything but an invoice is checked as the immediate request, the simulator's default.
  const isInvoice =
    typeof body === 'object' && body !== null && 'categorie' in body && body.categorie === '401';
  const parsed = (isInvoice ? DemandePaiementFacture : DemandePaiementImmediat).safeParse(body);
  if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
  const problems: Required<InvalidParam>[] = [];
  if (parsed.data.confirmation) {
    problems.push({ name: 'confirmation', reason: 'the simulator only serves confirmation=false' });
  }
  if (!Number.isInteger(parsed.data.montant)) {
    problems.push({ name: 'montant', reason: 'XOF amounts are whole numbers' });
  }
  if (problems.length > 0) throw invalidParams(problems);
  return parsed.data;
}
