import { webOriginOf, webUrlOrNull } from './web-url';

describe('webUrlOrNull', () => {
  it.each(['https://shop.example/return?order=1', 'http://127.0.0.1:3000/cancel'])('keeps %s', (url) => {
    expect(webUrlOrNull(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>',
    'JaVaScRiPt:alert(1)',
    'not a url',
    '//shop.example',
  ])('drops %s', (url) => {
    expect(webUrlOrNull(url)).toBeNull();
  });

  it('passes null through', () => {
    expect(webUrlOrNull(null)).toBeNull();
  });
});

describe('webOriginOf', () => {
  it('gives the origin of an http(s) URL, with its port', () => {
    expect(webOriginOf('https://shop.example:8443/return?x=1')).toBe('https://shop.example:8443');
    expect(webOriginOf('javascript:alert(1)')).toBeNull();
  });
});
