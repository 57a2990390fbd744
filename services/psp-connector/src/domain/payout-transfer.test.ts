import {
  afterNoAnswer,
  afterNotFound,
  afterRefusal,
  afterStatut,
  afterVerdict,
  TRANSFER_RETRY_DELAYS_MS,
  TRANSFER_VERDICT_WAIT_MS,
  type TransferState,
} from './payout-transfer';

const now = new Date('2026-11-25T08:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const state = (status: TransferState['status'], attempts = 0): TransferState => ({ status, attempts });

describe('a payout transfer', () => {
  it('is paid when the participant says IRREVOCABLE, failed with its reason on REJETE', () => {
    expect(afterStatut(state('pending'), 'IRREVOCABLE', undefined, now)).toEqual({
      status: 'paid',
      attempts: 0,
      nextAttemptAt: null,
      outcome: { result: 'PAID' },
    });
    expect(afterStatut(state('sent'), 'REJETE', 'AC06', now)?.outcome).toEqual({
      result: 'FAILED',
      reasonCode: 'AC06',
    });
  });

  it('waits for the verdict of a transfer sent, reading it back further apart each time', () => {
    expect(afterStatut(state('pending'), 'ENVOYE', undefined, now)).toMatchObject({
      status: 'sent',
      nextAttemptAt: at(TRANSFER_VERDICT_WAIT_MS),
      outcome: null,
    });
    expect(afterStatut(state('sent', 0), 'ENVOYE', undefined, now)?.nextAttemptAt).toEqual(
      at(TRANSFER_VERDICT_WAIT_MS * 2),
    );
  });

  it('reads back a transfer the participant calls a duplicate (DU03) instead of failing it', () => {
    expect(afterStatut(state('pending'), 'REJETE', 'DU03', now)).toMatchObject({
      status: 'unknown',
      nextAttemptAt: now,
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
    expect(afterNotFound(state('unknown', 3), now)).toMatchObject({ status: 'pending', nextAttemptAt: now });
  });

  it('ends once: a verdict, a refusal or a late answer changes nothing after the outcome', () => {
    expect(afterVerdict(state('sent'), { result: 'PAID' })?.status).toBe('paid');
    expect(afterRefusal(state('pending'))?.outcome).toEqual({ result: 'FAILED', reasonCode: undefined });
    for (const final of [state('paid'), state('failed')]) {
      expect(afterVerdict(final, { result: 'FAILED', reasonCode: 'AB08' })).toBeNull();
      expect(afterStatut(final, 'IRREVOCABLE', undefined, now)).toBeNull();
      expect(afterNoAnswer(final, now)).toBeNull();
      expect(afterNotFound(final, now)).toBeNull();
      expect(afterRefusal(final)).toBeNull();
    }
  });
});
