import {
  afterNoAnswer,
  afterNotFound,
  afterNotTaken,
  afterRefusal,
  afterStatut,
  afterVerdict,
  meaningOfProblem,
  TRANSFER_RETRY_DELAYS_MS,
  VERDICT_WAIT_MAX_FACTOR,
  type TransferState,
} from './payout-transfer';

const now = new Date('2026-11-25T08:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const state = (status: TransferState['status'], attempts = 0): TransferState => ({ status, attempts });
const WAIT = 60_000;
const answer = (statut: string, statutRaison?: string) => ({ statut, statutRaison });

describe('a payout transfer', () => {
  it('is paid when the participant says IRREVOCABLE, failed with its reason on REJETE', () => {
    expect(afterStatut(state('pending'), answer('IRREVOCABLE'), now, WAIT)).toEqual({
      status: 'paid',
      attempts: 0,
      nextAttemptAt: null,
      outcome: { result: 'PAID' },
    });
    expect(afterStatut(state('sent'), answer('REJETE', 'AC06'), now, WAIT)?.outcome).toEqual({
      result: 'FAILED',
      reasonCode: 'AC06',
    });
    expect(afterStatut(state('pending'), answer('REJETE', 'BE23'), now, WAIT)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      outcome: { result: 'FAILED', reasonCode: 'BE23' },
    });
  });

  it('waits for the verdict of a transfer sent, reading it back after the wait, then twice as long each time', () => {
    const sent = afterStatut(state('pending'), answer('ENVOYE'), now, WAIT);
    expect(sent).toEqual({ status: 'sent', attempts: 0, nextAttemptAt: at(WAIT), outcome: null });
    const stillSent = afterStatut(state('sent', sent!.attempts), answer('ENVOYE'), now, WAIT);
    expect(stillSent).toMatchObject({ attempts: 1, nextAttemptAt: at(WAIT * 2) });
    expect(afterStatut(state('sent', 2), answer('ENVOYE'), now, WAIT)?.nextAttemptAt).toEqual(at(WAIT * 8));
    expect(afterStatut(state('sent', 40), answer('ENVOYE'), now, WAIT)?.nextAttemptAt).toEqual(
      at(WAIT * VERDICT_WAIT_MAX_FACTOR),
    );
    expect(afterStatut(state('unknown', 3), answer('ENVOYE'), now, WAIT)).toMatchObject({
      status: 'sent',
      attempts: 0,
      nextAttemptAt: at(WAIT),
    });
  });

  it('reads back at once a transfer whose POST the participant calls a duplicate (DU03), instead of failing it', () => {
    expect(afterStatut(state('pending', 1), answer('REJETE', 'DU03'), now, WAIT)).toEqual({
      status: 'unknown',
      attempts: 1,
      nextAttemptAt: now,
      outcome: null,
    });
  });

  it('takes a DU03 read back as no answer: asked again after a pause, never failed nor read in a tight loop', () => {
    expect(afterStatut(state('unknown', 1), answer('REJETE', 'DU03'), now, WAIT)).toEqual({
      status: 'unknown',
      attempts: 2,
      nextAttemptAt: at(TRANSFER_RETRY_DELAYS_MS[1]),
      outcome: null,
    });
  });

  it('never sends blindly again after a lost answer: unknown, read back after a growing pause', () => {
    const first = afterNoAnswer(state('pending'), now);
    expect(first).toMatchObject({
      status: 'unknown',
      attempts: 1,
      nextAttemptAt: at(TRANSFER_RETRY_DELAYS_MS[0]),
    });
    expect(afterNoAnswer(state('unknown', 1), now)).toMatchObject({
      status: 'unknown',
      nextAttemptAt: at(TRANSFER_RETRY_DELAYS_MS[1]),
    });
    expect(afterNoAnswer(state('unknown', 50), now)?.nextAttemptAt).toEqual(
      at(TRANSFER_RETRY_DELAYS_MS.at(-1)!),
    );
    expect(afterNoAnswer(state('sent', 0), now)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(afterNotFound(state('unknown', 3), now)).toMatchObject({
      status: 'pending',
      attempts: 3,
      nextAttemptAt: now,
    });
  });

  it('makes a call the participant did not take (401, 429) again after a growing pause, a POST staying a POST', () => {
    expect(afterNotTaken(state('pending'), now)).toEqual({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: at(TRANSFER_RETRY_DELAYS_MS[0]),
      outcome: null,
    });
    expect(afterNotTaken(state('pending', 2), now)?.nextAttemptAt).toEqual(at(TRANSFER_RETRY_DELAYS_MS[2]));
    expect(afterNotTaken(state('unknown', 1), now)).toMatchObject({ status: 'unknown', attempts: 2 });
  });

  it('ends once: a verdict, a refusal or a late answer changes nothing after the outcome', () => {
    expect(afterVerdict(state('sent'), { result: 'PAID' })?.status).toBe('paid');
    expect(afterRefusal(state('pending'))?.outcome).toEqual({ result: 'FAILED', reasonCode: undefined });
    for (const final of [state('paid'), state('failed')]) {
      expect(afterVerdict(final, { result: 'FAILED', reasonCode: 'AB08' })).toBeNull();
      expect(afterStatut(final, answer('IRREVOCABLE'), now, WAIT)).toBeNull();
      expect(afterNoAnswer(final, now)).toBeNull();
      expect(afterNotTaken(final, now)).toBeNull();
      expect(afterNotFound(final, now)).toBeNull();
      expect(afterRefusal(final)).toBeNull();
    }
  });
});

describe('meaningOfProblem', () => {
  it.each([
    [400, 'send', 'refused'],
    [403, 'send', 'refused'],
    [401, 'send', 'not_taken'],
    [429, 'send', 'not_taken'],
    [500, 'send', 'unknown'],
    [503, 'send', 'unknown'],
    [404, 'send', 'unknown'],
    [409, 'send', 'unknown'],
    [400, 'read_back', 'unknown'],
    [403, 'read_back', 'unknown'],
    [401, 'read_back', 'not_taken'],
    [429, 'read_back', 'not_taken'],
    [503, 'read_back', 'unknown'],
  ] as const)('%s to a %s call: %s', (status, call, meaning) => {
    expect(meaningOfProblem(status, call)).toBe(meaning);
  });
});
