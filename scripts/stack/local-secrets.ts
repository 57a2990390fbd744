import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets a local stack needs. Real deployments take them from Kubernetes Secrets (charts/). */
export interface LocalSecrets {
  apiKeyPepper: string;
  webhookSecretKey: string;
  simulatorClientSecret: string;
}

/**
 * Made at random on a machine's first start and kept in `.sika/local-secrets.json` (git-ignored, mode 0600),
 * so that keys and webhook secrets issued by one run keep working in the next, and no secret is committed.
 */
export function loadLocalSecrets(directory: string): LocalSecrets {
  const file = path.join(directory, 'local-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  const secrets: LocalSecrets = {
    apiKeyPepper: randomBytes(32).toString('hex'),
    webhookSecretKey: randomBytes(32).toString('hex'),
    simulatorClientSecret: randomBytes(24).toString('hex'),
  };
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
