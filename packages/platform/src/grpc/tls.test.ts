import { identityInSubjectAltName } from './tls';

describe('identityInSubjectAltName', () => {
  it('reads the one Sika identity URI of a subjectAltName as Node formats it', () => {
    expect(
      identityInSubjectAltName(
        'URI:spiffe://sika/payments, DNS:payments, DNS:localhost, IP Address:127.0.0.1',
      ),
    ).toBe('payments');
  });

  it.each([
    ['no subjectAltName', undefined],
    ['no identity URI', 'DNS:ledger, IP Address:127.0.0.1'],
    ['an identity Sika does not know', 'URI:spiffe://sika/printer'],
    ['another trust domain', 'URI:spiffe://elsewhere/payments'],
    ['two identities', 'URI:spiffe://sika/payments, URI:spiffe://sika/payouts'],
    ['a DNS name alone, even a service’s', 'DNS:ledger'],
  ])('names none for %s', (_case, subjectAltName) => {
    expect(identityInSubjectAltName(subjectAltName)).toBeUndefined();
  });
});
