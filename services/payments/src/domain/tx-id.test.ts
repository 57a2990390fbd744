import { isValidTxId, newTxId, TX_ID_MAX_LENGTH } from './tx-id';

describe('newTxId', () => {
  it('is SIKA + base62, exactly 35 characters, alphanumeric', () => {
    const txId = newTxId();
    expect(txId).toHaveLength(TX_ID_MAX_LENGTH);
    expect(txId).toMatch(/^SIKA[0-9A-Za-z]{31}$/);
    expect(isValidTxId(txId)).toBe(true);
  });

  it('does not repeat over many draws', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newTxId()));
    expect(ids.size).toBe(10_000);
  });

  it('skips bytes that would bias the alphabet', () => {
    const bytes = [255, 248, 0, 61, 62];
    let call = 0;
    const txId = newTxId((size) =>
      Uint8Array.from({ length: size }, () => bytes[call++ % bytes.length] ?? 0),
    );
    // 255 and 248 are dropped; 0 → '0', 61 → 'z', 62 → '0'.
    expect(txId.slice(4, 10)).toBe('0z00z0');
  });
});

describe('isValidTxId', () => {
  it.each(['', 'SIKA-1', 'x'.repeat(36), 'SIKA_1', 'SIKA 1'])('rejects %p', (value) => {
    expect(isValidTxId(value)).toBe(false);
  });
});
