import { randomSuffix, resolveDatabaseUrl } from '@sika/testing';
import { Client, escapeIdentifier } from 'pg';

import { claimLocalDatabase } from '../database-claim';
import type { LocalSecrets } from '../local-secrets';

const secretsOf = (seed: string): LocalSecrets => ({
  apiKeyPepper: `${seed}-pepper`,
  webhookSecretKey: `${seed}-webhook`,
  payerAliasKey: `${seed}-alias`,
  simulatorClientSecret: `${seed}-simulator`,
  brokerPasswordKey: `${seed}-broker`,
  callbackSecretKey: `${seed}-callback`,
  checkoutTokenKey: `${seed}-checkout`,
});

describe('the local database of one checkout', () => {
  const database = `t_claim_${randomSuffix()}`;
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: await resolveDatabaseUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${escapeIdentifier(database)}`);
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(database)} WITH (FORCE)`);
    await admin.end();
  });

  it("is claimed by the first checkout's secrets, kept by them, refused to another checkout's", async () => {
    const mine = secretsOf('mine');

    expect(await claimLocalDatabase(admin, database, mine, '/work/sika')).toBe('claimed');
    expect(await claimLocalDatabase(admin, database, mine, '/work/sika')).toBe('ours');
    // A secret that seals nothing in the database (added to the file later, say) changes nothing.
    expect(
      await claimLocalDatabase(admin, database, { ...mine, brokerPasswordKey: 'regenerated' }, '/work/sika'),
    ).toBe('ours');

    const other = claimLocalDatabase(admin, database, secretsOf('other'), '/tmp/clone');
    await expect(other).rejects.toThrow(
      new RegExp(
        `^the database ${database} holds the data of the checkout at /work/sika, .*` +
          `DROP DATABASE ${database} WITH \\(FORCE\\).*SIKA_DB_NAME=sika_<name> bash scripts/start.sh$`,
      ),
    );
  });
});
