/**
 * The part of @sika/platform that pure code (a service's domain/) may use: errors, ids, the clock, page
 * sizes and masking. It loads neither gRPC, nor express, nor Prisma, nor a logger.
 */
export * from './errors';
export * from './credential-overlap';
export * from './ids';
export * from './clock';
export * from './page';
export { maskAlias, maskIdentifier } from './redaction';
export * from './idempotency';
export type { Scope } from './scope';
export * from './rate-limit-window';
export { clientSubjectOf } from './client-subject';
export * from './recent-answers';
