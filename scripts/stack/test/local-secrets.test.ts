import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { loadLocalSecrets } from '../local-secrets';

describe('local secrets', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'sika-secrets-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('are made once, kept private, and the same on the next start', () => {
    const first = loadLocalSecrets(path.join(directory, '.sika'));
    expect(first.apiKeyPepper).toMatch(/^[0-9a-f]{64}$/);
    expect(first.webhookSecretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.webhookSecretKey).not.toBe(first.apiKeyPepper);
    expect(statSync(path.join(directory, '.sika', 'local-secrets.json')).mode & 0o777).toBe(0o600);
    expect(loadLocalSecrets(path.join(directory, '.sika'))).toEqual(first);
  });

  it('keep those of a file made before a secret was added, and gain the new one', () => {
    const older = path.join(directory, 'older');
    const file = path.join(older, 'local-secrets.json');
    mkdirSync(older);
    const kept = { apiKeyPepper: 'p', webhookSecretKey: 'w', simulatorClientSecret: 's' };
    writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });

    const secrets = loadLocalSecrets(older);
    expect(secrets).toMatchObject({ ...kept, brokerPasswordKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
  });
});
