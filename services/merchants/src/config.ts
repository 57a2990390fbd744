import { envVar, grpcTlsEnv } from '@sika/platform';
import { z } from 'zod';

export const API_KEY_PEPPER_MIN_LENGTH = 32;

/** The environment of the merchants service (ports default to the local port table of the README). */
export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  GRPC_PORT: envVar.port().default(8051),
  METRICS_PORT: envVar.port().default(9101),
  LOG_LEVEL: envVar.logLevel().default('info'),
  /** Mutual TLS: the service's certificate (spiffe://sika/merchants), its key, and the internal CA (files). */
  ...grpcTlsEnv,
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The service's own Postgres schema; tests run the real main.ts on a schema of their own. */
  DATABASE_SCHEMA: envVar.postgresSchema().default('merchants'),
  /**
   * The HMAC key under which secret keys are hashed. Changing it invalidates every stored key, so it is
   * required (no default) and kept like any other secret.
   */
  API_KEY_PEPPER: z
    .string()
    .min(API_KEY_PEPPER_MIN_LENGTH, `must be at least ${API_KEY_PEPPER_MIN_LENGTH} characters`),
  /**
   * The SMTP relay emails to merchants leave through (smtp:// or smtps://, credentials in the URL: a secret).
   * Without it, emails are recorded and marked unsent, never sent.
   */
  SMTP_URL: envVar.url(['smtp', 'smtps']).optional(),
  /** The sender of those emails. */
  SMTP_FROM: envVar.string().default('Sika <no-reply@sika.invalid>'),
  /** How often the relay of emails looks for due ones when nothing woke it. */
  EMAIL_RELAY_INTERVAL: envVar.durationMs().prefault('5s'),
});

export type Config = z.output<typeof configSchema>;
