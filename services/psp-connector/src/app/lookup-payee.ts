import { PispiError, PispiProblemError } from '@sika/pispi';
import { AppError, maskAlias, newId, type Logger } from '@sika/platform';

import { modeOf } from '../domain/mode';
import type { SchemeDirectory } from './ports';

export type PayeeLookup =
  | { found: true; holderName: string; holderCountry: string | undefined }
  | { found: false; reasonCode: string | undefined };

/** What a lookup says it is for, on the business's statement should the participant show it. */
const LOOKUP_REASON = 'Sika: verification du compte de versement';

/**
 * Who holds an alias, without moving money: `POST /paiements` of 1 franc with `confirmation: true` is answered
 * INITIE with the holder's name (the API Business's name lookup), then dropped with
 * `PUT /paiements/{txId}/confirmations {decision: false}`. REJETE (BE23 …) means no account answers to it.
 */
export class LookupPayee {
  constructor(private readonly deps: { schemes: SchemeDirectory; logger: Logger }) {}

  async execute(livemode: boolean, alias: string): Promise<PayeeLookup> {
    const scheme = this.deps.schemes[modeOf(livemode)];
    if (!scheme) {
      throw new AppError('service_unavailable', `PI-SPI is not configured for ${modeOf(livemode)} mode.`);
    }
    if (alias.trim() === '')
      throw new AppError('parameter_missing', 'alias is required.', { param: 'alias' });
    const txId = newId('lkp');
    const log = this.deps.logger.child({ tx_id: txId, livemode, payee: maskAlias(alias) });
    try {
      const answer = await scheme.client.createPaiement({
        txId,
        payeurAlias: scheme.payeeAlias,
        payeAlias: alias,
        montant: 1,
        confirmation: true,
        motif: LOOKUP_REASON,
      });
      if (answer.statut === 'REJETE') {
        log.info({ statut_raison: answer.statutRaison }, 'payee lookup: no account');
        return { found: false, reasonCode: answer.statutRaison };
      }
      if (answer.statut !== 'INITIE' || !answer.payeNom) {
        throw new AppError(
          'service_unavailable',
          'The participant did not answer the name lookup as expected.',
          {
            cause: new Error(`statut ${answer.statut ?? 'none'} to a lookup`),
          },
        );
      }
      await scheme.client.confirmPaiement(txId, false);
      log.info('payee lookup: found');
      return { found: true, holderName: answer.payeNom, holderCountry: answer.payePays };
    } catch (error) {
      if (error instanceof PispiProblemError && error.status === 400) {
        throw new AppError('parameter_invalid', 'The participant refuses this alias.', {
          param: 'alias',
          cause: error,
        });
      }
      if (error instanceof PispiError) {
        log.warn({ err: error }, 'payee lookup failed');
        throw new AppError('service_unavailable', 'The participant could not be reached; retry later.', {
          cause: error,
        });
      }
      throw error;
    }
  }
}
