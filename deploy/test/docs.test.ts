import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { parse as parseMerchantCommand } from '../../packages/merchant-cli/src/cli';
import { parseCommand } from '../../packages/ops-cli/src/arguments';
import {
  codeOf,
  headingAnchors,
  linkTargets,
  markdownFiles,
  parseMarkdown,
  shellCommands,
} from './support/markdown';
import { readText, REPO, repoPath } from './support/repo';

// The README and docs/ stay true: every relative link and #anchor of the repository's Markdown reaches a file
// and a heading, and every command the README and docs/ show (a pnpm script, a `sika-ops` or `sika` command and its options,
// a script run by bash, node or tsx, a path of the repository) exists.

/** The README is a guide, not a notebook. */
const README_MAX_LINES = 250;

/** pnpm's own commands, which are not scripts of package.json. */
const PNPM_COMMANDS = new Set([
  'add',
  'dlx',
  'exec',
  'i',
  'install',
  'patch',
  'patch-commit',
  'remove',
  'update',
]);
/** A word naming something of the repository: one of its top-level folders, then a path (`deploy/x` alone is
 * Kubernetes' name of a Deployment). */
const REPO_PATH =
  /^(?:\.\/)?(?:\.ci|charts|deploy\/test|docs|k8s|packages|patches|proto|scripts|services|test-e2e)\/\S*$/;
/** A word standing for something to fill in (`<service>`, `pay_…`, `*.ts`, `{a,b}`, `$VAR`, `[--flag`). */
const PLACEHOLDER = /[<>…*{}$[\]|]/;
/** The root .gitignore's folders of build and run output (`test-e2e/artifacts/`): written by a run. */
const OUTPUTS = readText('.gitignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => /^[\w.-]+\/[\w./-]+\/$/.test(line));

const files = markdownFiles();
const guides = files.filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
const scripts = new Set(Object.keys((JSON.parse(readText('package.json')) as { scripts: object }).scripts));

const anchorsByFile = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsByFile.get(file);
  if (anchors === undefined) {
    anchors = headingAnchors(parseMarkdown(file));
    anchorsByFile.set(file, anchors);
  }
  return anchors;
}

/** What is wrong with one link of `file`, if anything. */
function linkProblem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …: not the repository's
  const [pathPart = '', anchor] = target.split('#', 2);
  const decoded = decodeURIComponent(pathPart);
  const resolved = decoded.startsWith('/')
    ? path.join(REPO, decoded)
    : path.resolve(path.dirname(repoPath(file)), decoded);
  const relative = path.relative(REPO, resolved);
  if (relative.startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  return anchorsOf(relative).has(decodeURIComponent(anchor))
    ? undefined
    : `${target}: no heading of ${relative} has the anchor #${anchor}`;
}

/**
 * Whether a path the docs show exists: as a file or folder of the repository; as the source of a build output
 * (`services/x/dist/y.js` from `services/x/src/y.ts`; `dist/y.js`, a service's own, from any service's
 * `src/y.ts`); or under an output folder of the root .gitignore.
 */
function pathExists(word: string): boolean {
  const file = word.replace(/^\.\//, '');
  if (existsSync(repoPath(file))) return true;
  const built = /^(.*?)\bdist\/(.+)\.js$/.exec(file);
  if (built) {
    const [, owner = '', source = ''] = built;
    const owners =
      owner === ''
        ? ['services', 'packages'].flatMap((group) =>
            readdirSync(repoPath(group)).map((name) => `${group}/${name}/`),
          )
        : [owner];
    return owners.some((folder) => existsSync(repoPath(folder, 'src', `${source}.ts`)));
  }
  return OUTPUTS.some((output) => file.startsWith(output));
}

function pathProblem(word: string | undefined, context: string): string[] {
  if (word === undefined || word.startsWith('-') || PLACEHOLDER.test(word) || pathExists(word)) return [];
  return [`${context}: ${word} does not exist`];
}

/**
 * A command of the operators' CLI (`sika-ops`) or of the merchant's (`sika`) must be one it knows, with options
 * it accepts (their values are not checked).
 */
function cliProblems(cli: 'sika' | 'sika-ops', args: readonly string[]): string[] {
  const redirect = args.findIndex((arg) => /^\d?[<>]/.test(arg));
  const words = (redirect === -1 ? args : args.slice(0, redirect))
    .map((arg) => arg.replace(/^\[|\]$/g, ''))
    .filter((arg) => arg !== '');
  if (words.length === 0 || words[0] === '…') return [];
  try {
    if (cli === 'sika-ops') parseCommand([...words, '--help']);
    // A placeholder stands for a value: the merchant's CLI checks the command and its options.
    else parseMerchantCommand(words.map((word) => (PLACEHOLDER.test(word) ? 'x' : word)));
    return [];
  } catch (error) {
    return [`${cli} ${words.join(' ')}: ${(error as Error).message}`];
  }
}

function pnpmProblems(args: readonly string[]): string[] {
  const rest = [...args];
  // `pnpm --dir <package> <script>` runs a script of that package, not of the root.
  const dir = rest[0] === '--dir' || rest[0] === '-C' ? rest.splice(0, 2)[1] : undefined;
  if (dir !== undefined) return pathProblem(dir, `pnpm --dir ${dir}`);
  while (rest[0]?.startsWith('-')) rest.shift();
  let name = rest.shift();
  if (name === 'run') name = rest.shift();
  if (name === undefined || PLACEHOLDER.test(name) || PNPM_COMMANDS.has(name)) return [];
  if (!scripts.has(name)) return [`pnpm ${name}: not a script of package.json`];
  return name === 'sika' || name === 'sika-ops' ? cliProblems(name, rest) : [];
}

function nodeProblems(args: readonly string[]): string[] {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (['-e', '-p', '-pe', '--eval', '--print'].includes(arg)) return []; // code given inline
    if (['--import', '-r', '--require', '--loader'].includes(arg)) index += 1;
    else if (!arg.startsWith('-'))
      return /[/.][cm]?[jt]s$|\//.test(arg) ? pathProblem(arg, `node ${arg}`) : [];
  }
  return [];
}

/** What is wrong with one shell command, whatever runs it (`kubectl exec … -- node dist/x.js` included). */
function commandProblems(command: readonly string[]): string[] {
  const words = [...command];
  while (words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift();
  return words.flatMap((word, index) => {
    const args = words.slice(index + 1);
    const problems = REPO_PATH.test(word) ? pathProblem(word, word) : [];
    if (word === 'pnpm') problems.push(...pnpmProblems(args));
    if (word === 'bash' || word === 'tsx') problems.push(...pathProblem(args[0], `${word} ${args[0]}`));
    if (word === 'node') problems.push(...nodeProblems(args));
    if ((word === 'sika' || word === 'sika-ops') && index === 0) problems.push(...cliProblems(word, args));
    return problems;
  });
}

describe("the repository's Markdown", () => {
  it.each(files)('%s: every relative link reaches a file, and every #anchor a heading', (file) => {
    const problems = linkTargets(parseMarkdown(file)).flatMap((target) => linkProblem(file, target) ?? []);
    expect(problems).toEqual([]);
  });
});

describe('the README and docs/', () => {
  it(`the README is at most ${README_MAX_LINES} lines`, () => {
    expect(readText('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it.each(guides)('%s: every command and path it shows exists', (file) => {
    const { blocks, spans } = codeOf(parseMarkdown(file));
    const problems = [...blocks, ...spans].flatMap((code) => shellCommands(code).flatMap(commandProblems));
    expect([...new Set(problems)]).toEqual([]);
  });
});
