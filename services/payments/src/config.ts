import { z } from 'zod';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar, grpcServiceEnv, secretKeyVar } from '@sika/platform';
import { CHECKOUT_TOKEN_KEY_MIN_LENGTH } from '@sika/rules';

/** The environment of the payments service; required variables have no default (the stack and charts set them). */
export const configSchema = z.object({
  ...grpcServiceEnv('payments'),
  AMQP_URL: envVar.url(['amqp', 'amqps']),
  PSP_CONNECTOR_GRPC_ADDRESS: envVar.grpcAddress(),
  MERCHANTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** How long a merchant's profile (fee rule, name) is reused: a change applies within this delay. */
  PROFILE_CACHE_TTL: envVar.durationMs().pipe(z.number().min(0).max(1_000)).prefault('1s'),
  /** The hosted page's origin: checkout_url = CHECKOUT_BASE_URL + /pay/ + payment id + / + token. */
  CHECKOUT_BASE_URL: envVar.url(['http', 'https']),
  /** Signs each checkout_url's token; checkout-web holds the same key to check it. */
  CHECKOUT_TOKEN_KEY: envVar
    .string()
    .min(CHECKOUT_TOKEN_KEY_MIN_LENGTH, `must be at least ${CHECKOUT_TOKEN_KEY_MIN_LENGTH} characters`),
  /** How often the expiry scheduler looks for payments past their deadline. */
  EXPIRY_POLL_INTERVAL: envVar.durationMs().prefault('1s'),
  /** How often attempts left pending (the scheme never answered, e.g. after a crash) are sent again. */
  ATTEMPT_SWEEP_INTERVAL: envVar.durationMs().prefault('5s'),
  /** Seals payer aliases at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64. */
  PAYER_ALIAS_KEY: secretKeyVar.current(),
  /** Keys PAYER_ALIAS_KEY replaced, comma-separated: still open what they sealed, never seal. */
  PAYER_ALIAS_PREVIOUS_KEYS: secretKeyVar.previous(),
  /** How long after a payment is final its payer's alias is kept (sealed) before only the masked form stays. */
  PAYER_ALIAS_RETENTION: envVar.durationMs().prefault('30d'),
  ...RETENTION_CONFIG,
});

export type Config = z.output<typeof configSchema>;
