import { loadGrpcTls, type GrpcTls, type SikaIdentity } from '@sika/platform';

import { LOCAL_TLS_DIRECTORY, localGrpcTlsEnv } from '../../scripts/stack/local-certificates';

/**
 * The certificate the stack's local CA issued to `identity` (`.sika/tls`, made when the stack started): a test
 * that calls a service's gRPC API directly does so as a caller the service allows for that method.
 */
export function stackGrpcTls(identity: SikaIdentity): GrpcTls {
  return loadGrpcTls(localGrpcTlsEnv(LOCAL_TLS_DIRECTORY, identity));
}
