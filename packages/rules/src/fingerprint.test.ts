import { canonicalJson, fingerprintOf, payoutRequestFingerprint } from './fingerprint';

describe('request fingerprints', () => {
  it('gives one text to bodies that differ only in key order, whitespace or absent values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, null], c: 'x' }, e: undefined })).toBe(
      '{"a":{"c":"x","d":[1,null]},"b":1}',
    );
    expect(fingerprintOf({ b: 1, a: 2 })).toBe(fingerprintOf({ a: 2, b: 1 }));
  });

  it('treats a payout without an amount as "everything", whoever asks, and tells amounts apart', () => {
    expect(payoutRequestFingerprint(undefined)).toBe(fingerprintOf({ amount: null }));
    expect(payoutRequestFingerprint(5_000)).toBe(fingerprintOf({ amount: 5_000 }));
    expect(payoutRequestFingerprint(5_000)).not.toBe(payoutRequestFingerprint(5_001));
    expect(payoutRequestFingerprint(5_000)).not.toBe(payoutRequestFingerprint(undefined));
  });
});
