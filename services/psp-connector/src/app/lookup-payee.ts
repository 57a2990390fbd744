import { PispiError, PispiProblemError } from '@sika/pispi';
import { AppError, maskAlias, newId, type Logger } from '@sika/platform';

import { modeOf } from '../domain/mode';
import { loggableProblem, toNameLookup } from '../domain/pispi-transformers';
import type { ParticipantDirectory } from './ports';

export type PayeeLookup =
  | { found: true; holderName: string; holderCountry: string | undefined }
  | { found: false; reasonCode: string | undefined };

/**
 * Who holds an alias, without moving money: `POST /paiements` of 1 franc with `confirmation: true` is answered
 * INITIE with the holder's name (the API Business's name lookup), then dropped with
 * `PUT /paiements/{txId}/confirmations {decision: false}`. REJETE (BE23 …) means no account answers to it.
 */
export class LookupPayee {
  constructor(private readonly deps: { schemes: ParticipantDirectory; logger: Logger }) {}

  async execute(livemode: boolean, alias: string): Promise<PayeeLookup> {
    const scheme = this.deps.schemes[modeOf(livemode)];
    if (!scheme) {
      throw new AppError('service_unavailable', `PI-SPI is not configured for ${modeOf(livemode)} mode.`);
    }
    if (alias.trim() === '')
      throw new AppError('parameter_missing', 'alias is required.', { param: 'alias' });
    const txId = newId('lkp');
    const log = this.deps.logger.child({ tx_id: txId, livemode, payee_masked: maskAlias(alias) });
    try {
      const answer = await scheme.client.createPaiement(toNameLookup(txId, alias, scheme.payeeAlias));
      if (answer.statut === 'REJETE') {
        log.info({ statut_raison: answer.statutRaison }, 'payee lookup: no account');
        return { found: false, reasonCode: answer.statutRaison };
      }
      if (answer.statut !== 'INITIE' || !answer.payeNom) {
        throw new AppError(
          'service_unavailable',
          'The participant did not answer the name lookup as expected.',
          { cause: new Error(`statut ${answer.statut ?? 'none'} to a lookup`) },
        );
      }
      await scheme.client.confirmPaiement(txId, false);
      log.info('payee lookup: found');
      return { found: true, holderName: answer.payeNom, holderCountry: answer.payePays };
    } catch (error) {
      if (error instanceof PispiProblemError && error.status === 400) {
        log.info({ problem: loggableProblem(error) }, 'payee lookup: alias refused');
        throw new AppError('parameter_invalid', 'The participant refuses this alias.', {
          param: 'alias',
          cause: error,
        });
      }
      if (error instanceof PispiError) {
        const failure =
          error instanceof PispiProblemError ? { problem: loggableProblem(error) } : { err: error };
        log.warn(failure, 'payee lookup failed');
        throw new AppError('service_unavailable', 'The participant could not be reached; retry later.', {
          cause: error,
        });
      }
      throw error;
    }
  }
}
