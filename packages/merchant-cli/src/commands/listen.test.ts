import { listenSecret } from './listen';

describe('listenSecret', () => {
  it('is a webhook secret that stays the same for a key and differs between keys', () => {
    const secret = listenSecret('sk_test_aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(secret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(listenSecret('sk_test_aaaaaaaaaaaaaaaaaaaaaaaa')).toBe(secret);
    expect(listenSecret('sk_test_bbbbbbbbbbbbbbbbbbbbbbbb')).not.toBe(secret);
  });
});
