import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { identityInSubjectAltName, SIKA_IDENTITIES } from '../../../packages/platform/src/grpc/tls';
import { loadLocalCertificates, localGrpcTlsEnv } from '../local-certificates';

describe('local certificates', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sika-tls-'));
  const directory = path.join(root, '.sika', 'tls');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const read = (file: string) => readFileSync(path.join(directory, file), 'utf8');

  it('are a CA and one certificate per identity, signed by it, keys kept private', async () => {
    await loadLocalCertificates(directory);
    const authority = new X509Certificate(read('ca.crt'));

    for (const identity of SIKA_IDENTITIES) {
      const env = localGrpcTlsEnv(directory, identity);
      expect(env).toEqual({
        GRPC_TLS_CERT_FILE: path.join(directory, `${identity}.crt`),
        GRPC_TLS_KEY_FILE: path.join(directory, `${identity}.key`),
        GRPC_TLS_CA_FILE: path.join(directory, 'ca.crt'),
      });
      const certificate = new X509Certificate(readFileSync(env.GRPC_TLS_CERT_FILE));
      expect(certificate.verify(authority.publicKey)).toBe(true);
      expect(identityInSubjectAltName(certificate.subjectAltName)).toBe(identity);
      expect(statSync(env.GRPC_TLS_KEY_FILE).mode & 0o777).toBe(0o600);
    }
    expect(statSync(path.join(directory, 'ca.key')).mode & 0o777).toBe(0o600);
  });

  it('are kept on the next start, and a missing one is issued again by the same CA', async () => {
    const ca = read('ca.crt');
    const ledger = read('ledger.crt');
    unlinkSync(path.join(directory, 'cli.crt'));

    await loadLocalCertificates(directory);

    expect([read('ca.crt'), read('ledger.crt')]).toEqual([ca, ledger]);
    expect(new X509Certificate(read('cli.crt')).verify(new X509Certificate(ca).publicKey)).toBe(true);
  });
});
