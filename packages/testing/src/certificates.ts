import { webcrypto } from 'node:crypto';

// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

/**
 * A private certificate authority for Sika's internal mTLS, for tests and local runs (a cluster takes its
 * certificates from cert-manager or its own PKI instead): ECDSA P-256 keys, which are made in a millisecond,
 * so every test process can have a CA of its own.
 */
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/**
 * Where @sika/platform reads a process's identity (grpc/tls.ts): the URI SAN `spiffe://sika/<identity>`.
 */
const IDENTITY_URI_PREFIX = 'spiffe://sika/';

/** One PEM certificate and the PEM (PKCS #8) private key that goes with it. */
export interface IssuedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

export interface IssueOptions {
  /** From now; one year by default. */
  validityDays?: number;
  /** Host names the certificate is valid for besides localhost, e.g. a cluster Service's name. */
  dnsNames?: readonly string[];
}

export interface CertificateAuthority extends IssuedCertificate {
  /** A certificate for one Sika identity, valid as a server (localhost, 127.0.0.1, ::1) and as a client. */
  issue(identity: string, options?: IssueOptions): Promise<IssuedCertificate>;
}

async function toPkcs8Pem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  // A minute back, so that a clock a little behind the issuer's still accepts the certificate.
  return { notBefore: new Date(now - 60_000), notAfter: new Date(now + days * DAY_MS) };
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  // Positive: the high bit of the first byte clear.
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

function authorityFrom(
  certificate: x509.X509Certificate,
  keys: webcrypto.CryptoKeyPair,
  privateKeyPem: string,
): CertificateAuthority {
  return {
    certificatePem: certificate.toString('pem'),
    privateKeyPem,
    async issue(identity, { validityDays = 365, dnsNames = [] } = {}) {
      const subjectKeys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
      const issued = await x509.X509CertificateGenerator.create({
        serialNumber: randomSerial(),
        subject: `CN=${identity}`,
        issuer: certificate.subject,
        ...validity(validityDays),
        signingAlgorithm: SIGNING_ALGORITHM,
        publicKey: subjectKeys.publicKey,
        signingKey: keys.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([
            x509.ExtendedKeyUsage.serverAuth,
            x509.ExtendedKeyUsage.clientAuth,
          ]),
          new x509.SubjectAlternativeNameExtension([
            { type: 'url', value: `${IDENTITY_URI_PREFIX}${identity}` },
            ...[identity, ...dnsNames, 'localhost'].map((value) => ({ type: 'dns' as const, value })),
            { type: 'ip', value: '127.0.0.1' },
            { type: 'ip', value: '::1' },
          ]),
          await x509.SubjectKeyIdentifierExtension.create(subjectKeys.publicKey),
          await x509.AuthorityKeyIdentifierExtension.create(certificate),
        ],
      });
      return {
        certificatePem: issued.toString('pem'),
        privateKeyPem: await toPkcs8Pem(subjectKeys.privateKey),
      };
    },
  };
}

/** A new self-signed CA named `name`, ten years by default. */
export async function createCertificateAuthority(
  name: string,
  validityDays = 3_650,
): Promise<CertificateAuthority> {
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${name}`,
    ...validity(validityDays),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return authorityFrom(certificate, keys, await toPkcs8Pem(keys.privateKey));
}

/** The CA kept from an earlier run (its PEM certificate and PKCS #8 key), to issue more certificates. */
export async function loadCertificateAuthority(issued: IssuedCertificate): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(issued.certificatePem);
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(issued.privateKeyPem),
    KEY_ALGORITHM,
    true,
    ['sign'],
  );
  const publicKey = await certificate.publicKey.export(KEY_ALGORITHM, ['verify']);
  return authorityFrom(certificate, { privateKey, publicKey }, issued.privateKeyPem);
}
