export * from './schemas/enums';
export * from './schemas/demande-paiement';
export * from './schemas/paiement';
export * from './schemas/webhook';
export * from './schemas/callback-body';
export * from './schemas/problem';
export * from './schemas/oauth';
export { SIGNATURE_HEADER, signBody, verifySignature } from './signature';
export {
  PispiClient,
  type ObservedExchange,
  type PispiClientOptions,
  type RegisteredWebhook,
} from './client/pispi-client';
export { PispiError, PispiNetworkError, PispiProblemError, PispiResponseError } from './client/errors';
export * from './simulator-control';
export { DOCUMENT_VARIABLE, locateApiBusinessDocument } from './conformance-document';
