/**
 * `node --import tsx scripts/stack/dev-cluster-tls.ts | kubectl apply -f -`: the internal certificates of
 * `skaffold dev`'s release as the Secrets its charts mount (`sika-<service>-grpc-tls`, namespace `sika`, in
 * cert-manager's format), taken from the local stack's CA in `.sika/tls/` (made now if missing): the local
 * certificates also name the services as the dev release dials them.
 */
import { readFileSync } from 'node:fs';

import { SIKA_IDENTITIES } from '../../packages/platform/src/grpc/tls';
import { LOCAL_TLS_DIRECTORY, loadLocalCertificates, localGrpcTlsEnv } from './local-certificates';

const NAMESPACE = 'sika';
const RELEASE = 'sika';

/** One Secret per service (the CLI has no pod), as one `kind: List` document. */
export function devClusterTlsSecrets(directory: string): object {
  const base64 = (file: string) => readFileSync(file).toString('base64');
  const items = SIKA_IDENTITIES.filter((identity) => identity !== 'cli').map((identity) => {
    const files = localGrpcTlsEnv(directory, identity);
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: `${RELEASE}-${identity}-grpc-tls`, namespace: NAMESPACE },
      data: {
        'tls.crt': base64(files.GRPC_TLS_CERT_FILE),
        'tls.key': base64(files.GRPC_TLS_KEY_FILE),
        'ca.crt': base64(files.GRPC_TLS_CA_FILE),
      },
    };
  });
  return { apiVersion: 'v1', kind: 'List', items };
}

async function main(): Promise<void> {
  await loadLocalCertificates(LOCAL_TLS_DIRECTORY);
  process.stdout.write(`${JSON.stringify(devClusterTlsSecrets(LOCAL_TLS_DIRECTORY), null, 2)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`dev-cluster-tls: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
