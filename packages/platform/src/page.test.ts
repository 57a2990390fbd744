import { AppError } from './errors';
import { pageLimit } from './page';

describe('pageLimit', () => {
  it('defaults to 20 when unset (0) and keeps 1 to 100', () => {
    expect([pageLimit(0), pageLimit(1), pageLimit(100)]).toEqual([20, 1, 100]);
  });

  it.each([-1, 101, 1.5, 2.5])('refuses %p naming limit', (limit) => {
    expect(() => pageLimit(limit)).toThrow(AppError);
    expect(() => pageLimit(limit)).toThrow(
      expect.objectContaining({
        code: 'parameter_invalid',
        param: 'limit',
        message: 'limit must be an integer from 1 to 100.',
      }),
    );
  });
});
