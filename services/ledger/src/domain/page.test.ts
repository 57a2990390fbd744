import { pageLimit } from './page';

describe('pageLimit', () => {
  it('defaults to 20 and accepts 1 to 100', () => {
    expect(pageLimit(0)).toBe(20);
    expect(pageLimit(1)).toBe(1);
    expect(pageLimit(100)).toBe(100);
  });

  it.each([-1, 101, 2.5])('refuses %p naming limit', (limit) => {
    expect(() => pageLimit(limit)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'limit' }),
    );
  });
});
