import { addressRefusal, classifyAddress, hostOf, urlRefusal } from './webhook-target';

const STRICT = { allowPrivateTargets: false };
const LOCAL = { allowPrivateTargets: true };

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2001:db8::1', 'reserved'],
  ])('classifies %s as %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  it.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:100.64.0.1', 'carrierGradeNat'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
  ])('classifies the IPv4-mapped %s as its IPv4 address: %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  it('classifies IPv6 outside global unicast, e.g. the deprecated IPv4-compatible ::7f00:1, as reserved', () => {
    expect(classifyAddress('::7f00:1')).toBe('reserved');
    expect(classifyAddress('::a00:1')).toBe('reserved');
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '2606:4700::1111',
    '2a00:1450::1',
  ])('classifies %s as public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('urlRefusal', () => {
  const refusal = (url: string, livemode = false, rules = STRICT) =>
    urlRefusal(new URL(url), livemode, rules);

  it('accepts https in live mode and http in test mode, on ports 80 and 443', () => {
    expect(refusal('https://shop.example/hooks', true)).toBeUndefined();
    expect(refusal('https://shop.example:443/hooks', true)).toBeUndefined();
    expect(refusal('http://shop.example/hooks')).toBeUndefined();
    expect(refusal('http://shop.example:443/hooks')).toBeUndefined();
    expect(refusal('https://shop.example:80/hooks')).toBeUndefined();
  });

  it('refuses http in live mode and any other port', () => {
    expect(refusal('http://shop.example/hooks', true)).toBe('must start with https:// in live mode');
    expect(refusal('https://shop.example:8443/hooks')).toBe('must use port 80 or 443');
    expect(refusal('http://shop.example:5432/')).toBe('must use port 80 or 443');
  });

  it('accepts all of it when private targets are allowed', () => {
    expect(refusal('http://127.0.0.1:8080/hooks', true, LOCAL)).toBeUndefined();
  });
});

describe('addressRefusal', () => {
  it('refuses a literal non-public address naming it, a resolved one without repeating the address', () => {
    expect(addressRefusal('169.254.169.254', ['169.254.169.254'], STRICT)).toBe(
      'must not point to a non-public address (169.254.169.254 is linkLocal)',
    );
    expect(addressRefusal('internal.example', ['8.8.8.8', '10.1.2.3'], STRICT)).toBe(
      'host resolves to a non-public address (private)',
    );
  });

  it('accepts public addresses, and anything when private targets are allowed', () => {
    expect(addressRefusal('shop.example', ['8.8.8.8', '2606:4700::1111'], STRICT)).toBeUndefined();
    expect(addressRefusal('localhost', ['127.0.0.1'], LOCAL)).toBeUndefined();
  });
});

describe('hostOf', () => {
  it('strips the brackets of an IPv6 host, as URL normalises mapped and numeric forms', () => {
    expect(hostOf(new URL('http://[::ffff:127.0.0.1]/'))).toBe('::ffff:7f00:1');
    expect(hostOf(new URL('http://2130706433/'))).toBe('127.0.0.1');
    expect(hostOf(new URL('https://shop.example/x'))).toBe('shop.example');
  });
});
