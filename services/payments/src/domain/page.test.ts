import { AppError } from '@sika/platform';
import { resolvePageSize } from './page';

describe('resolvePageSize', () => {
  it('defaults to 20 when unset (0) and keeps 1..100', () => {
    expect([resolvePageSize(0), resolvePageSize(1), resolvePageSize(100)]).toEqual([20, 1, 100]);
  });

  it.each([-1, 101, 1.5])('rejects %p on param limit', (limit) => {
    expect(() => resolvePageSize(limit)).toThrow(AppError);
    expect(() => resolvePageSize(limit)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'limit' }),
    );
  });
});
