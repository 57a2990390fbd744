import { AppError } from '@sika/platform/pure';
import { MAX_RANGE_DAYS, validateCollectionRange } from './collections';

const from = new Date('2026-03-01T00:00:00.000Z');
const after = (milliseconds: number) => new Date(from.getTime() + milliseconds);
const DAY_MS = 86_400_000;

describe('validateCollectionRange', () => {
  it('accepts a range from 1 ms up to exactly 92 days', () => {
    expect(validateCollectionRange({ from, to: after(1) })).toEqual({ from, to: after(1) });
    const longest = { from, to: after(MAX_RANGE_DAYS * DAY_MS) };
    expect(validateCollectionRange(longest)).toEqual(longest);
  });

  it.each([
    ['a missing from', 'from', { to: after(DAY_MS) }],
    ['a missing to', 'to', { from }],
    ['an empty range', 'to', { from, to: from }],
    ['to before from', 'to', { from, to: after(-1) }],
    ['a range 1 ms longer than 92 days', 'to', { from, to: after(MAX_RANGE_DAYS * DAY_MS + 1) }],
  ])('refuses %s, naming %s', (_case, param, range) => {
    expect(() => validateCollectionRange(range)).toThrow(
      expect.objectContaining({ constructor: AppError, code: 'parameter_invalid', param }),
    );
  });
});
