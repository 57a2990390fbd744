import { validateEndpointUrl } from './endpoint-url';

describe('validateEndpointUrl', () => {
  it.each(['https://shop.example/webhooks/sika', 'http://127.0.0.1:4000/hook?x=1'])('accepts %s', (url) => {
    expect(validateEndpointUrl(url)).toBe(url);
  });

  it.each([
    ['a relative path', '/webhooks'],
    ['another scheme', 'ftp://shop.example/hook'],
    ['credentials', 'https://user:pass@shop.example/hook'],
    ['an overlong URL', `https://shop.example/${'a'.repeat(2_048)}`],
    ['an empty string', ''],
  ])('refuses %s naming url', (_case, url) => {
    expect(() => validateEndpointUrl(url)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'url' }),
    );
  });
});
