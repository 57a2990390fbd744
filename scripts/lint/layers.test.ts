import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layer rules of eslint.config.mjs, proven on a fixture service (scripts/lint/fixtures/services/demo):
 * the repository's own config, run from the fixtures folder so that its `services/*` globs apply there.
 */
const root = path.join(__dirname, '..', '..');
const fixtures = path.join(__dirname, 'fixtures');

const eslintBin = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintResult {
  messages: { ruleId: string | null; message: string }[];
}

/** The eslint CLI, as `pnpm lint` runs it (it exits 1 when there is a problem), on one fixture file. */
async function problemsOf(file: string): Promise<string[]> {
  const args = [eslintBin, '--config', path.join(root, 'eslint.config.mjs'), '--format', 'json'];
  const output = await promisify(execFile)(process.execPath, [...args, `services/demo/src/${file}`], {
    cwd: fixtures,
  }).then(
    ({ stdout }) => stdout,
    (failure: { code?: number; stdout?: string }) => {
      if (failure.code !== 1 || failure.stdout === undefined) throw failure;
      return failure.stdout;
    },
  );
  const [result] = JSON.parse(output) as LintResult[];
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

jest.setTimeout(60_000);

describe('the layer rules', () => {
  it('refuse an import of infra/ in domain/', async () => {
    expect(await problemsOf('domain/imports-infra.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*outer layers/),
    ]);
  });

  it('refuse the platform root in domain/, which loads gRPC', async () => {
    expect(await problemsOf('domain/imports-platform-root.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*@sika\/platform\/pure/),
    ]);
  });

  it('let domain/ use the pure platform entry and the rules package', async () => {
    expect(await problemsOf('domain/pure.ts')).toEqual([]);
  });

  it('refuse Prisma in app/', async () => {
    expect(await problemsOf('app/imports-prisma.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Prisma belongs in infra/),
    ]);
  });

  it('refuse a floating promise', async () => {
    expect(await problemsOf('app/floating-promise.ts')).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /),
    ]);
  });
});
