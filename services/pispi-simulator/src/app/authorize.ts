import type { PispiScope } from '@sika/pispi';
import type { Clock } from '@sika/platform';

import { verifyAccessToken } from '../domain/access-token';
import type { OAuthClient } from '../domain/oauth-client';
import { unauthorized } from '../domain/problem';

/** Checks the bearer token of an API call and that it carries the operation's scope (401 otherwise). */
export class Authorize {
  constructor(
    private readonly client: OAuthClient,
    private readonly clock: Clock,
  ) {}

  /** The calling client's id. */
  check(authorization: string | undefined, scope: PispiScope): string {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
    if (!match?.[1]) throw unauthorized();
    const claims = verifyAccessToken(match[1], this.client.clientSecret, this.clock.now());
    if (!claims || claims.clientId !== this.client.clientId) throw unauthorized('Jeton invalide ou expiré');
    if (!claims.scopes.includes(scope)) throw unauthorized(`Autorisations insuffisantes (${scope})`);
    return claims.clientId;
  }
}
