import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets a local stack needs. Real deployments take them from Kubernetes Secrets (charts/). */
export interface LocalSecrets {
  apiKeyPepper: string;
  webhookSecretKey: string;
  payerAliasKey: string;
  simulatorClientSecret: string;
  /** Derives each service's RabbitMQ password (infra.ts localBroker). */
  brokerPasswordKey: string;
  /** Seals the scheme's callback secrets in psp-connector's schema (CALLBACK_SECRET_KEY). */
  callbackSecretKey: string;
  /** Signs and checks the token of each checkout_url (payments' and checkout-web's CHECKOUT_TOKEN_KEY). */
  checkoutTokenKey: string;
}

/**
 * Made at random on a machine's first start and kept in `.sika/local-secrets.json` (git-ignored, mode 0600),
 * so that keys and webhook secrets issued by one run keep working in the next, and no secret is committed.
 */
export function loadLocalSecrets(directory: string): LocalSecrets {
  const file = path.join(directory, 'local-secrets.json');
  // A file from before a secret was added keeps its own and gains the new one.
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const secrets: LocalSecrets = {
    apiKeyPepper: kept.apiKeyPepper ?? randomBytes(32).toString('hex'),
    webhookSecretKey: kept.webhookSecretKey ?? randomBytes(32).toString('hex'),
    payerAliasKey: kept.payerAliasKey ?? randomBytes(32).toString('hex'),
    simulatorClientSecret: kept.simulatorClientSecret ?? randomBytes(24).toString('hex'),
    brokerPasswordKey: kept.brokerPasswordKey ?? randomBytes(32).toString('hex'),
    callbackSecretKey: kept.callbackSecretKey ?? randomBytes(32).toString('hex'),
    checkoutTokenKey: kept.checkoutTokenKey ?? randomBytes(32).toString('hex'),
  };
  if (Object.keys(kept).length === Object.keys(secrets).length) return secrets;
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
