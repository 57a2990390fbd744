import { PispiProblemError, type Paiement, type PaiementImmediatReponse } from '@sika/pispi';
import { maskAlias, withContextFrom, type Clock, type Logger } from '@sika/platform';

import { modeOf } from '../domain/mode';
import {
  afterNoAnswer,
  afterNotFound,
  afterNotTaken,
  afterRefusal,
  afterStatut,
  meaningOfProblem,
  type TransferState,
  type TransferStep,
} from '../domain/payout-transfer';
import { loggableProblem, toPayoutPaiement } from '../domain/pispi-transformers';
import type { DueTransfer, PayoutTransferStore, Participant, ParticipantDirectory } from './ports';

/** A claimed transfer is left alone this long while it is sent: far longer than one exchange. */
const LEASE_MS = 60_000;

/** What one exchange with the participant gave. */
type Answer =
  | { kind: 'paiement'; paiement: PaiementImmediatReponse | Paiement }
  | { kind: 'not_found' }
  | { kind: 'refused' }
  | { kind: 'not_taken' }
  | { kind: 'none' };

/**
 * Sends the payouts' transfers that are due, from Sika's own account of the mode: `POST /paiements` for a
 * pending one (`txId` = payout id, without confirmation: the payout account was verified by its name lookup);
 * a transfer whose answer was lost, or whose verdict is late, is read back with `GET /paiements/{txId}`
 * first, and sent again only if the participant never had it, so no payout is ever paid twice.
 */
export class SendPayoutTransfers {
  constructor(
    private readonly deps: {
      store: PayoutTransferStore;
      schemes: ParticipantDirectory;
      clock: Clock;
      logger: Logger;
      onPublished: () => void;
      batchSize: number;
      /** How long a sent transfer waits for its callback before it is read back (then longer each time). */
      verdictWaitMs: number;
    },
  ) {}

  async execute(): Promise<boolean> {
    const due = await this.deps.store.claimDue(this.deps.clock.now(), this.deps.batchSize, LEASE_MS);
    // Each in the trace of the payout it pays: the exchange's HTTP span and what it publishes join it.
    for (const transfer of due) await withContextFrom(transfer.traceContext, () => this.send(transfer));
    return due.length === this.deps.batchSize;
  }

  private async send(due: DueTransfer): Promise<void> {
    const log = this.deps.logger.child({ payout_id: due.payoutId, livemode: due.livemode });
    const scheme = this.deps.schemes[modeOf(due.livemode)];
    if (!scheme) {
      // Kept, not failed: the money stays reserved for it, and it leaves once the mode is configured.
      log.error(`PI-SPI is not configured for ${modeOf(due.livemode)} mode: the payout transfer waits`);
      return;
    }
    const answer = await this.exchange(due, scheme, log);
    const now = this.deps.clock.now();
    const published = await this.deps.store.inTransaction(async (unit) => {
      const transfer = await unit.lock(due.payoutId, due.livemode);
      // A callback may have ended it, or moved it on, while the exchange ran.
      if (!transfer || transfer.state.status !== due.status) return false;
      const step = this.stepAfter(answer, transfer.state, now);
      if (step === null) return false;
      const paiement = answer.kind === 'paiement' ? answer.paiement : undefined;
      await unit.recordStep(
        transfer,
        step,
        { reasonCode: paiement?.statutRaison, end2endId: paiement?.end2endId },
        now,
      );
      log.info(
        { status: step.status, statut: paiement?.statut, statut_raison: paiement?.statutRaison },
        'payout transfer',
      );
      return step.outcome !== null;
    });
    if (published) this.deps.onPublished();
  }

  private async exchange(due: DueTransfer, scheme: Participant, log: Logger): Promise<Answer> {
    try {
      if (due.status !== 'pending') {
        const found = await scheme.client.getPaiement(due.payoutId);
        return found ? { kind: 'paiement', paiement: found } : { kind: 'not_found' };
      }
      const paiement = await scheme.client.createPaiement(toPayoutPaiement(due, scheme.payeeAlias));
      return { kind: 'paiement', paiement };
    } catch (error) {
      if (!(error instanceof PispiProblemError)) {
        log.warn({ err: error }, 'no usable answer about a payout transfer; read back after a pause');
        return { kind: 'none' };
      }
      const problem = loggableProblem(error);
      switch (meaningOfProblem(error.status, due.status === 'pending' ? 'send' : 'read_back')) {
        case 'refused':
          log.error(
            { problem, payee_masked: maskAlias(due.payeeAlias) },
            'the participant refuses the payout transfer: it fails',
          );
          return { kind: 'refused' };
        case 'not_taken':
          log.warn({ problem }, 'the participant did not take the payout transfer call; made again later');
          return { kind: 'not_taken' };
        case 'unknown':
          log.warn({ problem }, 'no usable answer about a payout transfer; read back after a pause');
          return { kind: 'none' };
      }
    }
  }

  private stepAfter(answer: Answer, state: TransferState, now: Date): TransferStep | null {
    switch (answer.kind) {
      case 'paiement':
        return afterStatut(state, answer.paiement, now, this.deps.verdictWaitMs);
      case 'not_found':
        return afterNotFound(state, now);
      case 'refused':
        return afterRefusal(state);
      case 'not_taken':
        return afterNotTaken(state, now);
      case 'none':
        return afterNoAnswer(state, now);
    }
  }
}
