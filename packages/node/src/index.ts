export { DEFAULT_BASE_URL, Sika, type SikaOptions } from './client';
export {
  SikaAuthenticationError,
  SikaConnectionError,
  SikaError,
  SikaIdempotencyError,
  SikaInvalidRequestError,
  SikaRateLimitError,
  SikaResponseError,
  SikaServerError,
  SikaSignatureVerificationError,
  type SignatureFailure,
  type SikaErrorCode,
  type SikaErrorType,
} from './errors';
export type { RequestOptions } from './http-client';
export { ListRequest, type Page } from './list';
export type {
  Balance,
  BalanceTransaction,
  BalanceTransactionListParams,
  Event,
  EventListParams,
  Payment,
  PaymentAttempt,
  PaymentCreationInput,
  PaymentListParams,
  Payout,
  PayoutCreationInput,
  PayoutListParams,
} from './operations';
export type { components, operations, paths } from './generated/openapi';
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  signatureHeaderFor,
  type ConstructEventOptions,
  type WebhookEvent,
} from './webhooks';
export { VERSION } from './version';
export { Sika as default } from './client';
