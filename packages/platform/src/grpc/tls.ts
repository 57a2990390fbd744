import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PeerCertificate } from 'node:tls';

import { credentials, ServerCredentials } from '@grpc/grpc-js';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { z } from 'zod';

import { ConfigError, envVar, loadConfig, type ConfigProblem } from '../config';

/**
 * Who may hold a certificate of Sika's internal CA: each service, and the operator CLI. A process's identity
 * is the URI SAN `spiffe://sika/<identity>` of its certificate; servers decide per method which identities
 * may call (see GrpcCallers).
 */
export const SIKA_IDENTITIES = [
  'gateway',
  'checkout-web',
  'dashboard-web',
  'merchants',
  'payments',
  'psp-connector',
  'ledger',
  'payouts',
  'webhook-dispatcher',
  'cli',
] as const;
export type SikaIdentity = (typeof SIKA_IDENTITIES)[number];

const IDENTITY_URI = /^URI:spiffe:\/\/sika\/([a-z][a-z-]*)$/;

function isSikaIdentity(name: string): name is SikaIdentity {
  return (SIKA_IDENTITIES as readonly string[]).includes(name);
}

/**
 * The identity named by a certificate's subjectAltName as Node formats it (`DNS:ledger, URI:spiffe://sika/ledger,
 * IP Address:127.0.0.1`): exactly one Sika identity URI, else none.
 */
export function identityInSubjectAltName(subjectAltName: string | undefined): SikaIdentity | undefined {
  const names = (subjectAltName ?? '')
    .split(', ')
    .map((entry) => IDENTITY_URI.exec(entry)?.[1])
    .filter((name) => name !== undefined);
  const [only] = names;
  return names.length === 1 && only !== undefined && isSikaIdentity(only) ? only : undefined;
}

/** The identity of the peer of a TLS connection (its certificate was verified against the CA by then). */
export function peerIdentity(certificate: PeerCertificate | undefined): SikaIdentity | undefined {
  return identityInSubjectAltName(certificate?.subjectaltname);
}

/**
 * A process's own certificate and key, and the CA that signs every Sika certificate (PEM). Servers require
 * a client certificate of that CA; clients present theirs and check the server's against it.
 */
export interface GrpcTls {
  ca: Buffer;
  certificate: Buffer;
  privateKey: Buffer;
}

/**
 * The variables of every process that speaks gRPC, to spread into its config schema: paths of PEM files,
 * as a Kubernetes Secret of type kubernetes.io/tls (cert-manager's) mounts them as tls.crt, tls.key and
 * ca.crt. There is no plaintext mode: tests get certificates from @sika/testing.
 */
export const grpcTlsEnv = {
  GRPC_TLS_CERT_FILE: envVar.string(),
  GRPC_TLS_KEY_FILE: envVar.string(),
  GRPC_TLS_CA_FILE: envVar.string(),
};

export interface GrpcTlsConfig {
  GRPC_TLS_CERT_FILE: string;
  GRPC_TLS_KEY_FILE: string;
  GRPC_TLS_CA_FILE: string;
}

type TlsVariable = keyof GrpcTlsConfig;

/** The file's contents if it holds a PEM `what`, else the problem (never the contents: a key is secret). */
function readPem(file: string, what: 'certificate' | 'private key'): Buffer | string {
  let contents: Buffer;
  try {
    contents = readFileSync(file);
  } catch {
    return `cannot read the file ${file}`;
  }
  try {
    if (what === 'certificate') new X509Certificate(contents);
    else createPrivateKey(contents);
  } catch {
    return `${file} holds no PEM ${what}`;
  }
  return contents;
}

/**
 * Reads the files once, at start, and checks them together: each a PEM of its kind, the key the
 * certificate's, the certificate naming one Sika identity. A wrong Secret stops the process at start with a
 * ConfigError naming the variables, rather than failing its calls later.
 */
export function grpcTls(config: GrpcTlsConfig): GrpcTls {
  const kinds: Record<TlsVariable, 'certificate' | 'private key'> = {
    GRPC_TLS_CERT_FILE: 'certificate',
    GRPC_TLS_KEY_FILE: 'private key',
    GRPC_TLS_CA_FILE: 'certificate',
  };
  const read = new Map<TlsVariable, Buffer>();
  const problems: ConfigProblem[] = [];
  for (const [variable, kind] of Object.entries(kinds) as [TlsVariable, 'certificate' | 'private key'][]) {
    const contents = readPem(config[variable], kind);
    if (typeof contents === 'string') problems.push({ variable, problem: `is invalid: ${contents}` });
    else read.set(variable, contents);
  }
  const [certificatePem, privateKey, ca] = [
    read.get('GRPC_TLS_CERT_FILE'),
    read.get('GRPC_TLS_KEY_FILE'),
    read.get('GRPC_TLS_CA_FILE'),
  ];
  if (certificatePem === undefined || privateKey === undefined || ca === undefined) {
    throw new ConfigError(problems);
  }
  const certificate = new X509Certificate(certificatePem);
  if (!certificate.checkPrivateKey(createPrivateKey(privateKey))) {
    throw new ConfigError([
      {
        variable: 'GRPC_TLS_KEY_FILE',
        problem: 'is invalid: not the private key of the GRPC_TLS_CERT_FILE certificate',
      },
    ]);
  }
  if (identityInSubjectAltName(certificate.subjectAltName) === undefined) {
    throw new ConfigError([
      {
        variable: 'GRPC_TLS_CERT_FILE',
        problem: `is invalid: it names no Sika identity (one URI SAN spiffe://sika/<identity>, one of ${SIKA_IDENTITIES.join(', ')})`,
      },
    ]);
  }
  return { ca, certificate: certificatePem, privateKey };
}

/** Requires a client certificate signed by the CA: a caller without one is refused at the handshake. */
export function serverCredentials(tls: GrpcTls): ServerCredentials {
  return ServerCredentials.createSsl(
    tls.ca,
    [{ cert_chain: tls.certificate, private_key: tls.privateKey }],
    true,
  );
}

/** Presents the process's certificate and accepts only a server whose certificate the CA signed. */
export function channelCredentials(tls: GrpcTls): ChannelCredentials {
  return credentials.createSsl(tls.ca, tls.privateKey, tls.certificate);
}

/**
 * grpcTls of the files `env` names, for a process without a config schema of its own (the CLI, a test's
 * client): a ConfigError names each variable whose file is missing or malformed.
 */
export function loadGrpcTls(env: NodeJS.ProcessEnv): GrpcTls {
  return grpcTls(loadConfig(z.object(grpcTlsEnv), env));
}
