import { PispiProblemError, type Paiement } from '@sika/pispi';
import { withContextFrom, type Clock, type Logger } from '@sika/platform';

import {
  afterRefusal,
  afterSending,
  afterVerdict,
  type FundReturnState,
  type FundReturnStep,
} from '../domain/fund-return';
import { modeOf } from '../domain/mode';
import type { DueFundReturn, FundReturnStore, ParticipantDirectory } from './ports';

/** A claimed return is left alone this long while it is sent: far longer than one exchange. */
const LEASE_MS = 60_000;

/**
 * Sends the returns that are due: new ones, rejected ones whose pause is over, and sent ones whose verdict is
 * late (asking again is harmless: the participant answers a return under way or done as it stands, and sends
 * a rejected one again). The answer's retourStatut is recorded like the callback that will also come; a
 * participant that refuses the return outright (403 past 90 days, 404) ends it for operators. A participant
 * that does not answer is asked again when the lease runs out.
 */
export class SendFundReturns {
  constructor(
    private readonly deps: {
      store: FundReturnStore;
      schemes: ParticipantDirectory;
      clock: Clock;
      logger: Logger;
      onPublished: () => void;
      batchSize: number;
    },
  ) {}

  async execute(): Promise<boolean> {
    const due = await this.deps.store.claimDue(this.deps.clock.now(), this.deps.batchSize, LEASE_MS);
    // Each in the trace of the refund it makes: the exchange's HTTP span and what it publishes join it.
    for (const fundReturn of due) await withContextFrom(fundReturn.traceContext, () => this.send(fundReturn));
    return due.length === this.deps.batchSize;
  }

  private async send(due: DueFundReturn): Promise<void> {
    const { schemes, logger } = this.deps;
    const log = logger.child({ tx_id: due.txId, end_to_end_id: due.end2endId, livemode: due.livemode });
    const scheme = schemes[modeOf(due.livemode)];
    if (!scheme) return;
    let answer: Paiement | 'refused';
    try {
      answer = await scheme.client.returnFunds(due.end2endId);
    } catch (error) {
      if (!(error instanceof PispiProblemError) || (error.status !== 403 && error.status !== 404)) {
        log.warn({ err: error }, 'sending a fund return failed; sent again after its lease');
        return;
      }
      log.error({ err: error }, 'the participant refuses the fund return: an operator must return the money');
      answer = 'refused';
    }
    const now = this.deps.clock.now();
    const published = await this.deps.store.inTransaction(async (unit) => {
      const fundReturn = await unit.lock(due);
      if (!fundReturn) return false;
      const sentAgain = fundReturn.state.status !== 'sending';
      const attempts = fundReturn.state.attempts + (sentAgain ? 1 : 0);
      const step = stepAfter(answer, { ...fundReturn.state, attempts }, now);
      if (step === null) return false;
      const reason = answer === 'refused' ? undefined : answer.retourStatutRaison;
      await unit.recordStep(fundReturn, step, reason, now, sentAgain);
      log.info({ status: step.status, attempts }, 'fund return sent');
      return step.outcome !== null;
    });
    if (published) this.deps.onPublished();
  }
}

function stepAfter(answer: Paiement | 'refused', state: FundReturnState, now: Date): FundReturnStep | null {
  if (answer === 'refused') return afterRefusal();
  switch (answer.retourStatut) {
    case 'IRREVOCABLE':
      return afterVerdict(state, 'sent', now);
    case 'REJETE':
      return afterVerdict(state, 'rejected', now);
    default:
      return afterSending(now);
  }
}
