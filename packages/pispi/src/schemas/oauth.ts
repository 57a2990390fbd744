import { z } from 'zod';

/**
 * OAuth2 client credentials (RFC 6749 §4.4), the API Business's security scheme (`securitySchemes.OAuth2`,
 * flow clientCredentials). The token endpoint is the `tokenUrl` of that scheme, outside the API's base path.
 */
export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';

/** The scopes of the document that Sika's subset needs. */
export const PISPI_SCOPES = [
  'webhook.read',
  'webhook.write',
  'webhook.delete',
  'demande_paiement.read',
  'demande_paiement.write',
  'retour_fonds.write',
  'paiement.read',
  'paiement.write',
] as const;
export type PispiScope = (typeof PISPI_SCOPES)[number];

/** Token request (form-encoded); client id and secret travel in HTTP Basic or, as RFC 6749 allows, here. */
export const TokenRequest = z.object({
  grant_type: z.literal(CLIENT_CREDENTIALS_GRANT),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

/** RFC 6749 §5.1 successful token answer. */
export const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer', 'expected a bearer token'),
  /** Lifetime in seconds. */
  expires_in: z.number().positive().optional(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
