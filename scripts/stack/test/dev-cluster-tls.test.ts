import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SIKA_IDENTITIES } from '../../../packages/platform/src/grpc/tls';
import { devClusterTlsSecrets } from '../dev-cluster-tls';
import { loadLocalCertificates } from '../local-certificates';

describe('the dev cluster TLS Secrets', () => {
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'sika-dev-tls-'));
    await loadLocalCertificates(directory);
  });

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("holds each service's certificate, key and CA under the name its chart mounts, dialable in namespace sika", () => {
    const list = devClusterTlsSecrets(directory) as {
      items: { metadata: { name: string; namespace: string }; data: Record<string, string> }[];
    };
    const services = SIKA_IDENTITIES.filter((identity) => identity !== 'cli');
    expect(list.items.map((item) => item.metadata.name)).toEqual(
      services.map((service) => `sika-${service}-grpc-tls`),
    );
    for (const [index, item] of list.items.entries()) {
      expect(item.metadata.namespace).toBe('sika');
      expect(Object.keys(item.data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
      const certificate = new X509Certificate(Buffer.from(item.data['tls.crt']!, 'base64'));
      const authority = new X509Certificate(Buffer.from(item.data['ca.crt']!, 'base64'));
      expect(certificate.verify(authority.publicKey)).toBe(true);
      expect(certificate.subjectAltName).toContain(`spiffe://sika/${services[index]}`);
      expect(certificate.subjectAltName).toContain(`DNS:sika-${services[index]}.sika.svc`);
    }
  });
});
