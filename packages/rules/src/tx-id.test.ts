import { isValidTxId, newTxId, TX_ID_MAX_LENGTH } from './tx-id';

describe('newTxId', () => {
  it('makes 35 alphanumeric characters starting with SIKA, different every time', () => {
    const first = newTxId();
    expect(first).toMatch(/^SIKA[A-Za-z0-9]{31}$/);
    expect(first).toHaveLength(TX_ID_MAX_LENGTH);
    expect(newTxId()).not.toBe(first);
    expect(isValidTxId(first)).toBe(true);
  });

  it('refuses what the scheme would not take', () => {
    expect(isValidTxId('')).toBe(false);
    expect(isValidTxId('x'.repeat(36))).toBe(false);
    expect(isValidTxId('SIKA-123')).toBe(false);
  });
});
