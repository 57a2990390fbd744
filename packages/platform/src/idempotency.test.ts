import { IDEMPOTENCY_RETENTION_MS, idempotencyLockId, idempotencyVerdict } from './idempotency';

describe('idempotency keys', () => {
  const now = new Date('2026-11-25T10:00:00Z');
  const request = {
    scope: { merchantId: 'mer_a', livemode: false, key: 'k1' },
    operation: 'create_payout',
    fingerprint: 'f1',
    now,
  };
  const stored = { operation: 'create_payout', requestFingerprint: 'f1', resourceId: 'po_1', createdAt: now };

  it('replays the record of the same request', () => {
    expect(idempotencyVerdict(stored, request)).toEqual({ kind: 'replay', resourceId: 'po_1' });
  });

  it('refuses the key for another body or another operation', () => {
    expect(() => idempotencyVerdict({ ...stored, requestFingerprint: 'f2' }, request)).toThrow(
      expect.objectContaining({ code: 'idempotency_key_reused' }),
    );
    expect(() => idempotencyVerdict({ ...stored, operation: 'cancel_payment' }, request)).toThrow(
      expect.objectContaining({ code: 'idempotency_key_reused' }),
    );
  });

  it('frees a key once its 24 hours are over', () => {
    const old = {
      ...stored,
      requestFingerprint: 'other',
      createdAt: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
    };
    expect(idempotencyVerdict(old, request)).toEqual({ kind: 'expired' });
  });

  it('locks keys apart per namespace, merchant, mode and key', () => {
    const scope = request.scope;
    const ids = new Set([
      idempotencyLockId('a', scope),
      idempotencyLockId('b', scope),
      idempotencyLockId('a', { ...scope, livemode: true }),
      idempotencyLockId('a', { ...scope, key: 'k2' }),
    ]);
    expect(ids.size).toBe(4);
  });
});
