import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createCertificateAuthority, type CertificateAuthority } from './certificates';

/** The variables every gRPC-speaking Sika process reads its identity from (@sika/platform grpcTlsEnv). */
export type GrpcTlsEnv = Readonly<
  Record<'GRPC_TLS_CERT_FILE' | 'GRPC_TLS_KEY_FILE' | 'GRPC_TLS_CA_FILE', string>
>;

/** One identity of the test CA: as files (for a config) and as their contents (for in-process clients). */
export interface TestIdentity {
  env: GrpcTlsEnv;
  /** What @sika/platform's createGrpcClient and startGrpcServer take as `tls`. */
  tls: { ca: Buffer; certificate: Buffer; privateKey: Buffer };
}

interface TestPki {
  authority: CertificateAuthority;
  directory: string;
  caFile: string;
}

let pki: Promise<TestPki> | undefined;
const identities = new Map<string, Promise<TestIdentity>>();

/**
 * One CA per test process (a jest worker and the services it spawns share it through the files), its
 * files in a temporary directory removed when the process exits.
 */
function testPki(): Promise<TestPki> {
  pki ??= createCertificateAuthority('Sika test CA').then((authority) => {
    const directory = mkdtempSync(path.join(tmpdir(), 'sika-test-pki-'));
    process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
    const caFile = path.join(directory, 'ca.crt');
    writeFileSync(caFile, authority.certificatePem);
    return { authority, directory, caFile };
  });
  return pki;
}

async function issueTestIdentity(identity: string): Promise<TestIdentity> {
  const { authority, directory, caFile } = await testPki();
  const issued = await authority.issue(identity);
  const certificateFile = path.join(directory, `${identity}.crt`);
  const privateKeyFile = path.join(directory, `${identity}.key`);
  writeFileSync(certificateFile, issued.certificatePem);
  writeFileSync(privateKeyFile, issued.privateKeyPem, { mode: 0o600 });
  return {
    env: { GRPC_TLS_CERT_FILE: certificateFile, GRPC_TLS_KEY_FILE: privateKeyFile, GRPC_TLS_CA_FILE: caFile },
    tls: {
      ca: Buffer.from(authority.certificatePem),
      certificate: Buffer.from(issued.certificatePem),
      privateKey: Buffer.from(issued.privateKeyPem),
    },
  };
}

/**
 * The certificate of `identity` (a service's name, `cli`, …) from the test CA, issued once per process: a
 * test calls a service as the identity the service's allowlist expects, e.g. ledger.PostPaymentCredit as
 * `payments`.
 */
export function testIdentity(identity: string): Promise<TestIdentity> {
  let issued = identities.get(identity);
  if (issued === undefined) {
    issued = issueTestIdentity(identity);
    identities.set(identity, issued);
  }
  return issued;
}

/**
 * One client per identity that a service's allowlist names first for some method, behind one object: each
 * method is called as its first allowed caller (ledger.reservePayout as `payouts`, ledger.auditBooks as
 * `cli` …), so a service's tests go through mutual TLS and its allowlist as its real callers do. `connect`
 * makes a client with the given `tls` (@sika/platform's createGrpcClient); close() closes them all.
 */
export async function clientOfAllowedCallers<C extends { close(): void }>(
  callers: Readonly<Record<string, readonly string[]>>,
  connect: (tls: TestIdentity['tls']) => C,
): Promise<C> {
  const firstCallers = [...new Set(Object.values(callers).map(([first]) => first))].filter(
    (identity) => identity !== undefined,
  );
  const clients = new Map<string, C>();
  for (const identity of firstCallers) clients.set(identity, connect((await testIdentity(identity)).tls));
  const byMethod = (method: string): C | undefined => {
    const [first] = Object.hasOwn(callers, method) ? (callers[method] ?? []) : [];
    return first === undefined ? undefined : clients.get(first);
  };
  return new Proxy({} as C, {
    get(_target, property) {
      if (property === 'close') return () => clients.forEach((client) => client.close());
      if (typeof property !== 'string') return undefined;
      return byMethod(property)?.[property as keyof C];
    },
  });
}

/**
 * The allowlist of a test's stand-in for a service (a gRPC service definition): every method open to the
 * given identities, typically the one service under test.
 */
export function allowEveryMethod<Identity extends string>(
  definition: object,
  identities: readonly Identity[],
): Record<string, readonly Identity[]> {
  return Object.fromEntries(Object.keys(definition).map((method) => [method, identities]));
}
