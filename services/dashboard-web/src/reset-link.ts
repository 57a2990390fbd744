import { parseConfigOrExit, runScript, systemClock } from '@sika/platform';

import { IssuePasswordReset } from './app/issue-password-reset';
import { composeAccounts } from './compose';
import { configSchema } from './config';

/**
 * `node dist/reset-link.js <email>`: the operator's answer to a forgotten password (there is no mail server).
 * Prints a link valid once, for PASSWORD_RESET_VALIDITY, to send to the merchant after checking who asks.
 * Runs where the dashboard runs (`kubectl exec deploy/<release>-dashboard-web -- node dist/reset-link.js …`),
 * with its environment: it reads and writes only the dashboard's own schema.
 */
async function main(): Promise<void> {
  const email = process.argv[2];
  if (email === undefined || process.argv.length > 3) {
    process.stderr.write('usage: node dist/reset-link.js <email>\n');
    process.exit(2);
  }
  const config = parseConfigOrExit(
    configSchema.pick({
      DATABASE_URL: true,
      DATABASE_SCHEMA: true,
      PUBLIC_URL: true,
      PASSWORD_RESET_VALIDITY: true,
    }),
  );
  const { db, store } = composeAccounts(config);
  await runScript(
    async () => {
      const { url, expiresAt } = await new IssuePasswordReset({
        store,
        clock: systemClock,
        publicUrl: config.PUBLIC_URL,
        validityMs: config.PASSWORD_RESET_VALIDITY,
      }).execute(email);
      return { url, expires_at: expiresAt.toISOString() };
    },
    () => db.destroy(),
  );
}

void main();
