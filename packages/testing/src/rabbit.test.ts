import { uniqueName } from './rabbit';

describe('uniqueName', () => {
  it('keeps the prefix and adds a random part', () => {
    expect(uniqueName('payments.events')).toMatch(/^payments\.events\.[a-z0-9]{10}$/);
    expect(uniqueName('q')).not.toBe(uniqueName('q'));
  });
});
