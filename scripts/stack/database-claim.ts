import { createHash } from 'node:crypto';
import { escapeIdentifier, escapeLiteral, type Client } from 'pg';

import type { LocalSecrets } from './local-secrets';

/**
 * The secrets whose output the services keep in the database: API-key hashes, sealed webhook secrets, payer
 * aliases and scheme callback secrets open only with the secrets that wrote them. A secret added later to
 * local-secrets.json does not change the fingerprint, so a checkout keeps its database.
 */
const SEALING_SECRETS = ['apiKeyPepper', 'webhookSecretKey', 'payerAliasKey', 'callbackSecretKey'] as const;

const CLAIM = /^sika local stack: secrets ([0-9a-f]{16}), checkout (.+)$/;

export function secretsFingerprint(secrets: LocalSecrets): string {
  const hash = createHash('sha256');
  for (const name of SEALING_SECRETS) hash.update(`${name}=${secrets[name]}\n`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Makes sure the local database is this checkout's: each checkout makes its own `.sika/local-secrets.json`,
 * and a stack started on a database another checkout's stack filled fails in scattered ways (psp-connector
 * stops with "sealed with a key that is not configured", that checkout's keys answer 401). The database's
 * comment records the fingerprint of the secrets that first ran a stack on it, and where that checkout is;
 * a database without such a comment is claimed. Throws, saying what to do, when another checkout claimed it.
 */
export async function claimLocalDatabase(
  admin: Client,
  database: string,
  secrets: LocalSecrets,
  checkout: string,
): Promise<'claimed' | 'ours'> {
  const fingerprint = secretsFingerprint(secrets);
  const { rows } = await admin.query<{ comment: string | null }>(
    "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
    [database],
  );
  const claim = CLAIM.exec(rows[0]?.comment ?? '');
  if (claim?.[1] === fingerprint) return 'ours';
  if (claim !== null) {
    throw new Error(
      `the database ${database} holds the data of the checkout at ${claim[2]}, written with its ` +
        `.sika/local-secrets.json: this checkout's services cannot open it. Drop it (psql -c ` +
        `'DROP DATABASE ${database} WITH (FORCE)'), or give this checkout a database of its own: ` +
        `SIKA_DB_NAME=sika_<name> bash scripts/start.sh`,
    );
  }
  await admin.query(
    `COMMENT ON DATABASE ${escapeIdentifier(database)} IS ${escapeLiteral(
      `sika local stack: secrets ${fingerprint}, checkout ${checkout}`,
    )}`,
  );
  return 'claimed';
}
