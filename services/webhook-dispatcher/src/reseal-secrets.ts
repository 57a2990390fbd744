import { parseConfigOrExit, runScript, SecretBox, systemClock } from '@sika/platform';
import { configSchema } from './config';
import { createDatabase } from './infra/database';
import { resealEndpointSecrets } from './infra/reseal-secrets';

/**
 * `node dist/reseal-secrets.js`: after a new WEBHOOK_SECRET_KEY was rolled out (the one it replaces moved to
 * WEBHOOK_SECRET_PREVIOUS_KEYS on every replica), rewrites every stored webhook secret with the new key, so
 * that the previous keys can be dropped. Runs where the dispatcher runs
 * (`kubectl exec deploy/<release>-webhook-dispatcher -- node dist/reseal-secrets.js`), with its environment,
 * while it runs; running it again changes nothing. Prints counts, never a secret; exits 1 when some secret no
 * configured key opens (their endpoint ids are printed: those stay as they are).
 */
async function main(): Promise<void> {
  if (process.argv.length > 2) {
    process.stderr.write('usage: node dist/reseal-secrets.js\n');
    process.exit(2);
  }
  const config = parseConfigOrExit(
    configSchema.pick({
      DATABASE_URL: true,
      DATABASE_SCHEMA: true,
      WEBHOOK_SECRET_KEY: true,
      WEBHOOK_SECRET_PREVIOUS_KEYS: true,
    }),
  );
  const db = createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA });
  await runScript(
    async () => {
      const report = await resealEndpointSecrets(
        db,
        new SecretBox(config.WEBHOOK_SECRET_KEY, config.WEBHOOK_SECRET_PREVIOUS_KEYS),
        systemClock.now(),
      );
      if (report.unreadable.length > 0) {
        process.stderr.write(
          `${report.unreadable.length} endpoint secret(s) open with no configured key: add the key that sealed them to WEBHOOK_SECRET_PREVIOUS_KEYS\n`,
        );
        process.exitCode = 1;
      }
      return report;
    },
    () => db.destroy(),
  );
}

void main();
