import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { SIKA_IDENTITIES, type SikaIdentity } from '../../packages/platform/src/grpc/tls';
import {
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
} from '../../packages/testing/src/certificates';
import type { GrpcTlsEnv } from '../../packages/testing/src/test-pki';

/** `.sika/tls` at the repository root, beside local-secrets.json. */
export const LOCAL_TLS_DIRECTORY = path.resolve(__dirname, '..', '..', '.sika', 'tls');

/** Where the local stack keeps an identity's certificate and key, and the CA's certificate. */
export function localGrpcTlsEnv(directory: string, identity: SikaIdentity): GrpcTlsEnv {
  return {
    GRPC_TLS_CERT_FILE: path.join(directory, `${identity}.crt`),
    GRPC_TLS_KEY_FILE: path.join(directory, `${identity}.key`),
    GRPC_TLS_CA_FILE: path.join(directory, 'ca.crt'),
  };
}

/** A certificate this close to its end is issued again at the next start. */
const RENEW_BEFORE_MS = 30 * 86_400_000;

function writePrivate(file: string, contents: string): void {
  writeFileSync(file, contents, { mode: 0o600 });
}

async function loadAuthority(directory: string): Promise<CertificateAuthority> {
  const certificateFile = path.join(directory, 'ca.crt');
  const keyFile = path.join(directory, 'ca.key');
  if (existsSync(certificateFile) && existsSync(keyFile)) {
    return loadCertificateAuthority({
      certificatePem: readFileSync(certificateFile, 'utf8'),
      privateKeyPem: readFileSync(keyFile, 'utf8'),
    });
  }
  const authority = await createCertificateAuthority('Sika local CA');
  writeFileSync(certificateFile, authority.certificatePem);
  writePrivate(keyFile, authority.privateKeyPem);
  return authority;
}

/** Kept when it exists, was signed by this CA and is not about to expire. */
function isUsable(certificateFile: string, authority: X509Certificate): boolean {
  if (!existsSync(certificateFile)) return false;
  const certificate = new X509Certificate(readFileSync(certificateFile));
  return (
    certificate.verify(authority.publicKey) &&
    new Date(certificate.validTo).getTime() - Date.now() > RENEW_BEFORE_MS
  );
}

/**
 * Sika's internal CA for local runs and a certificate for every identity (each service, the CLI), made on a
 * machine's first start and kept in `.sika/tls/` (git-ignored; keys mode 0600), so the CLI and the
 * end-to-end tests find theirs there too. A cluster takes its certificates from Secrets instead (charts/).
 */
export async function loadLocalCertificates(directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  const authority = await loadAuthority(directory);
  const authorityCertificate = new X509Certificate(authority.certificatePem);
  for (const identity of SIKA_IDENTITIES) {
    const files = localGrpcTlsEnv(directory, identity);
    if (isUsable(files.GRPC_TLS_CERT_FILE, authorityCertificate)) continue;
    // Also the names the services of `skaffold dev`'s release (sika, namespace sika) are dialed by, so that a
    // dev cluster can take these files as its Secrets.
    const issued = await authority.issue(identity, {
      dnsNames: [`sika-${identity}`, `sika-${identity}.sika.svc`],
    });
    writePrivate(files.GRPC_TLS_KEY_FILE, issued.privateKeyPem);
    writeFileSync(files.GRPC_TLS_CERT_FILE, issued.certificatePem);
  }
}
