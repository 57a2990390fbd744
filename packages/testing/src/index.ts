export { resolveInfra, resolveDatabaseUrl, resolveAmqpUrl, resolveRedisUrl, type Infra } from './infra';
export { createTestSchema, type CreateTestSchemaOptions, type TestSchema } from './postgres';
export { scanIndexOf, type ScanIndex } from './scan-index';
export { countingStatements } from './counting-statements';
export { applyMigrations, readMigrations, type ApplyMigrationsOptions, type Migration } from './migrations';
export { testSchemaName, withSearchPath } from './schema-names';
export { randomSuffix } from './random';
export {
  uniqueName,
  createRabbitScope,
  deleteRabbitObjects,
  type RabbitNames,
  type RabbitScope,
} from './rabbit';
export {
  createTestRedis,
  unreachableRedis,
  type CreateTestRedisOptions,
  type KeyLifetime,
  type TestRedis,
} from './redis';
export { spawnProcess, type ExitStatus, type SpawnedProcess, type SpawnProcessOptions } from './process';
export { waitFor, type WaitForOptions } from './wait';
export { settleRetryingOverload } from './overload';
export {
  isLogMessage,
  loggedPort,
  spawnService,
  stopGracefully,
  type ServiceProcessOptions,
} from './service-process';
export { grpcHealthStatus } from './grpc-health';
export {
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
  type IssuedCertificate,
  type IssueOptions,
} from './certificates';
export {
  allowEveryMethod,
  clientOfAllowedCallers,
  testIdentity,
  type GrpcTlsEnv,
  type TestIdentity,
} from './test-pki';
export { ALIAS_CASES, type AliasCase } from './alias-cases';
export { scanLogForLeaks, SIMULATOR_HOLDER_NAMES, type LeakFinding, type LeakKind } from './log-scan';
export { OtlpReceiver, spansOfTrace, type ReceivedSpan } from './otlp-receiver';
export { formFields, formValue, fuzzSettings } from './form-fuzz';
