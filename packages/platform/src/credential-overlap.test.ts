import { MAX_OVERLAP_SECONDS, previousCredentialExpiry } from './credential-overlap';

describe('previousCredentialExpiry', () => {
  const now = new Date('2026-03-01T09:00:00.000Z');

  it('is null (at once) for 0 or nothing, else that many seconds from now, up to 7 days', () => {
    expect(previousCredentialExpiry(now, undefined)).toBeNull();
    expect(previousCredentialExpiry(now, 0)).toBeNull();
    expect(previousCredentialExpiry(now, 3_600)).toEqual(new Date('2026-03-01T10:00:00.000Z'));
    expect(previousCredentialExpiry(now, MAX_OVERLAP_SECONDS)).toEqual(new Date('2026-03-08T09:00:00.000Z'));
  });

  it.each([MAX_OVERLAP_SECONDS + 1, -1, 1.5])(
    'refuses %s naming expire_previous_after_seconds',
    (seconds) => {
      expect(() => previousCredentialExpiry(now, seconds)).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'expire_previous_after_seconds' }),
      );
    },
  );
});
