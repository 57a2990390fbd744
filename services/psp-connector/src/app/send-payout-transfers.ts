import { PispiProblemError, type Paiement } from '@sika/pispi';
import { maskAlias, type Clock, type Logger } from '@sika/platform';

import { modeOf } from '../domain/mode';
import {
  afterNoAnswer,
  afterNotFound,
  afterRefusal,
  afterStatut,
  type TransferState,
  type TransferStep,
} from '../domain/payout-transfer';
import type { DueTransfer, PayoutTransferStore, SchemeDirectory } from './ports';

/** A claimed transfer is left alone this long while it is sent: far longer than one exchange. */
const LEASE_MS = 60_000;

/** What one exchange with the participant gave. */
type Answer =
  { kind: 'paiement'; paiement: Paiement } | { kind: 'not_found' } | { kind: 'refused' } | { kind: 'none' };

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
      schemes: SchemeDirectory;
      clock: Clock;
      logger: Logger;
      onPublished: () => void;
      batchSize: number;
    },
  ) {}

  async execute(): Promise<boolean> {
    const due = await this.deps.store.claimDue(this.deps.clock.now(), this.deps.batchSize, LEASE_MS);
    for (const transfer of due) await this.send(transfer);
    return due.length === this.deps.batchSize;
  }

  private async send(due: DueTransfer): Promise<void> {
    const log = this.deps.logger.child({ payout_id: due.payoutId, livemode: due.livemode });
    const scheme = this.deps.schemes[modeOf(due.livemode)];
    if (!scheme) return;
    const answer = await this.exchange(due, scheme, log);
    const now = this.deps.clock.now();
    const published = await this.deps.store.inTransaction(async (unit) => {
      const transfer = await unit.lock(due.payoutId, due.livemode);
      // A callback may have ended it, or moved it on, while the exchange ran.
      if (!transfer || transfer.state.status !== due.status) return false;
      const step = stepAfter(answer, transfer.state, now);
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

  private async exchange(
    due: DueTransfer,
    scheme: NonNullable<SchemeDirectory['test']>,
    log: Logger,
  ): Promise<Answer> {
    try {
      if (due.status !== 'pending') {
        const found = await scheme.client.getPaiement(due.payoutId);
        return found ? { kind: 'paiement', paiement: found } : { kind: 'not_found' };
      }
      const paiement = await scheme.client.createPaiement({
        txId: due.payoutId,
        payeurAlias: scheme.payeeAlias,
        payeAlias: due.payeeAlias,
        montant: Number(due.amount),
        confirmation: false,
        motif: due.reason,
      });
      return { kind: 'paiement', paiement };
    } catch (error) {
      if (error instanceof PispiProblemError && !error.retryable) {
        log.error(
          { err: error, payee: maskAlias(due.payeeAlias) },
          'the participant refuses the payout transfer: it fails',
        );
        return { kind: 'refused' };
      }
      log.warn({ err: error }, 'no usable answer about a payout transfer; read back after a pause');
      return { kind: 'none' };
    }
  }
}

function stepAfter(answer: Answer, state: TransferState, now: Date): TransferStep | null {
  switch (answer.kind) {
    case 'paiement':
      return afterStatut(state, answer.paiement.statut, answer.paiement.statutRaison, now);
    case 'not_found':
      return afterNotFound(state, now);
    case 'refused':
      return afterRefusal(state);
    case 'none':
      return afterNoAnswer(state, now);
  }
}
