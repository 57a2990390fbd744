import { clientSubjectOf } from './client-subject';

describe('clientSubjectOf', () => {
  it('counts an IPv4 address as itself, mapped or not', () => {
    expect(clientSubjectOf('198.51.100.7')).toBe('198.51.100.7');
    expect(clientSubjectOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts every IPv6 address of one /64 as that /64, however it is written', () => {
    const subjects = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:abcd',
    ].map(clientSubjectOf);
    expect(new Set(subjects)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(clientSubjectOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keeps what it cannot parse as it came', () => {
    expect(clientSubjectOf('unknown')).toBe('unknown');
  });
});
