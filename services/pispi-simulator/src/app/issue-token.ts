import { PISPI_SCOPES, TokenRequest, invalidParamsOf, type TokenResponse } from '@sika/pispi';
import type { Clock } from '@sika/platform';

import { issueAccessToken } from '../domain/access-token';
import { invalidParams, unauthorized } from '../domain/problem';
import { constantTimeEquals, type OAuthClient } from '../domain/oauth-client';

export interface TokenRequestInput {
  /** From `Authorization: Basic`, when present. */
  basic: { clientId: string; clientSecret: string } | undefined;
  /** The form fields. */
  form: unknown;
}

/**
 * OAuth2 client-credentials grant (RFC 6749 §4.4). Client authentication by HTTP Basic or by client_id and
 * client_secret in the form; wrong or missing credentials answer 401 with a problem, like every error here.
 * The scopes granted are those asked for that the simulator serves, or all of them when none is asked for.
 */
export class IssueToken {
  constructor(
    private readonly client: OAuthClient,
    private readonly clock: Clock,
  ) {}

  execute({ basic, form }: TokenRequestInput): TokenResponse {
    const parsed = TokenRequest.safeParse(form ?? {});
    if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
    const { scope, client_id, client_secret } = parsed.data;
    const credentials =
      basic ??
      (client_id !== undefined && client_secret !== undefined
        ? { clientId: client_id, clientSecret: client_secret }
        : undefined);
    if (!credentials) throw unauthorized('Authentification du client requise');
    const idMatches = constantTimeEquals(credentials.clientId, this.client.clientId);
    const secretMatches = constantTimeEquals(credentials.clientSecret, this.client.clientSecret);
    if (!idMatches || !secretMatches) {
      throw unauthorized('Identifiants du client invalides');
    }

    const requested = scope?.split(' ').filter(Boolean) ?? [...PISPI_SCOPES];
    const granted = PISPI_SCOPES.filter((known) => requested.includes(known));
    if (granted.length === 0) {
      throw invalidParams([
        { name: 'scope', reason: `none of the requested scopes is served: ${PISPI_SCOPES}` },
      ]);
    }
    const expiresAt = this.clock.now().getTime() + this.client.tokenTtlMs;
    return {
      access_token: issueAccessToken(
        { clientId: this.client.clientId, scopes: granted, expiresAt },
        this.client.clientSecret,
      ),
      token_type: 'Bearer',
      expires_in: Math.floor(this.client.tokenTtlMs / 1000),
      scope: granted.join(' '),
    };
  }
}
