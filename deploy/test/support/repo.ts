import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The repository root. */
export const REPO = path.resolve(__dirname, '../../..');

export const repoPath = (...parts: string[]): string => path.join(REPO, ...parts);

/** Every folder of services/: one service each, and one name everywhere (image, chart, artifact). */
export function serviceNames(): string[] {
  return readdirSync(repoPath('services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A service has a database when it has a Prisma schema (the rule of scripts/db). */
export function hasDatabase(service: string): boolean {
  return (
    existsSync(repoPath('services', service, 'prisma', 'schema')) ||
    existsSync(repoPath('services', service, 'prisma', 'schema.prisma'))
  );
}

export function readYaml<T = unknown>(...parts: string[]): T {
  return parse(readFileSync(repoPath(...parts), 'utf8')) as T;
}

export function readText(...parts: string[]): string {
  return readFileSync(repoPath(...parts), 'utf8');
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
