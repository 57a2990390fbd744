import { createLogger, Database, parseConfigOrExit, runScript, SecretBox } from '@sika/platform';

import { ResealCallbackSecrets } from './app/reseal-callback-secrets';
import { configVariables } from './config';
import type { DB } from './generated/database';
import { SqlPispiWebhookStore } from './infra/sql-pispi-webhook-store';

/**
 * `node dist/reseal-callback-secrets.js`: seals every stored callback secret with CALLBACK_SECRET_KEY, the
 * clear ones left by a version before sealing and those sealed by a previous key, then prints what it did per
 * mode, e.g. `{"test":"current","live":"resealed"}`. Run after a key rotation, before the previous key is
 * dropped from CALLBACK_SECRET_PREVIOUS_KEYS. Runs where the service runs
 * (`kubectl exec deploy/<release>-psp-connector -- node dist/reseal-callback-secrets.js`), with its
 * environment; exit code 1 when a secret cannot be opened with any configured key.
 */
async function main(): Promise<void> {
  const config = parseConfigOrExit(
    configVariables.pick({
      DATABASE_URL: true,
      DATABASE_SCHEMA: true,
      LOG_LEVEL: true,
      CALLBACK_SECRET_KEY: true,
      CALLBACK_SECRET_PREVIOUS_KEYS: true,
    }),
  );
  // Logs on stderr: stdout carries the result only, for scripts.
  const logger = createLogger({
    service: 'psp-connector',
    level: config.LOG_LEVEL,
    destination: process.stderr,
  });
  // One registration lock at a time: one connection.
  const db = new Database<DB>({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    maxConnections: 1,
  });
  const box = new SecretBox(config.CALLBACK_SECRET_KEY, config.CALLBACK_SECRET_PREVIOUS_KEYS);
  await runScript(
    () => new ResealCallbackSecrets({ webhooks: new SqlPispiWebhookStore(db, box), logger }).execute(),
    () => db.destroy(),
  );
}

void main();
