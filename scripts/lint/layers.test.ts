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
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

const FIXTURE_FILES = [
  'domain/imports-infra.ts',
  'domain/imports-platform-root.ts',
  'domain/pure.ts',
  'app/imports-prisma.ts',
  'app/floating-promise.ts',
];

/**
 * The eslint CLI, as `pnpm lint` runs it (it exits 1 when there is a problem), on every fixture file at once:
 * one run builds the type information the typed rules need once, where a run per file built it five times.
 */
async function lintFixtures(): Promise<Map<string, string[]>> {
  const args = [eslintBin, '--config', path.join(root, 'eslint.config.mjs'), '--format', 'json'];
  const files = FIXTURE_FILES.map((file) => path.join(fixtures, 'services/demo/src', file));
  const output = await promisify(execFile)(process.execPath, [...args, ...files], { cwd: fixtures }).then(
    ({ stdout }) => stdout,
    (failure: { code?: number; stdout?: string }) => {
      if (failure.code !== 1 || failure.stdout === undefined) throw failure;
      return failure.stdout;
    },
  );
  const results = JSON.parse(output) as LintResult[];
  return new Map(
    FIXTURE_FILES.map((file, index) => {
      const result = results.find(({ filePath }) => filePath === files[index]);
      if (result === undefined) throw new Error(`eslint reported nothing about ${file}`);
      return [file, result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`)];
    }),
  );
}

jest.setTimeout(60_000);

describe('the layer rules', () => {
  let problems: Map<string, string[]>;
  const problemsOf = (file: string) => problems.get(file);

  beforeAll(async () => {
    problems = await lintFixtures();
  });

  it('refuse an import of infra/ in domain/', () => {
    expect(problemsOf('domain/imports-infra.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*outer layers/),
    ]);
  });

  it('refuse the platform root in domain/, which loads gRPC', () => {
    expect(problemsOf('domain/imports-platform-root.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*@sika\/platform\/pure/),
    ]);
  });

  it('let domain/ use the pure platform entry and the rules package', () => {
    expect(problemsOf('domain/pure.ts')).toEqual([]);
  });

  it('refuse Prisma in app/', () => {
    expect(problemsOf('app/imports-prisma.ts')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Prisma belongs in infra/),
    ]);
  });

  it('refuse a floating promise', () => {
    expect(problemsOf('app/floating-promise.ts')).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /),
    ]);
  });
});
