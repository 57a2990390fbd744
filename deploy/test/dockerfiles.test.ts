import { existsSync } from 'node:fs';
import path from 'node:path';

import { hasDatabase, readText, readYaml, repoPath, serviceNames } from './support/repo';
import type { Json } from './support/repo';

// No Docker engine runs the tests: each services/<name>/Dockerfile is read and held to the rules of the
// images (multi-stage, pinned slim Node 20, only this service and its workspace packages, production
// dependencies, non-root, no HEALTHCHECK, `node dist/main.js`), and to what the charts expect of it.

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions with their continuation lines joined, comments dropped, grouped by stage. */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

/** The relative modules a TypeScript file imports, transitively, as paths from the repository root. */
function localImports(file: string, seen = new Set<string>()): Set<string> {
  for (const [, specifier] of readText(file).matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
    const target = path.join(path.dirname(file), `${specifier!}.ts`);
    if (!seen.has(target) && existsSync(repoPath(target))) {
      seen.add(target);
      localImports(target, seen);
    }
  }
  return seen;
}

describe.each(serviceNames())('services/%s/Dockerfile', (service) => {
  const text = readText('services', service, 'Dockerfile');
  const stages = parseDockerfile(text);
  const build = stages[0]!;
  const runtime = stages.at(-1)!;
  const runs = all(build, 'RUN').map((run) => run.args);

  it('is multi-stage, every stage from a Node 20 slim image pinned to a release', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages)
      expect(stage.from).toMatch(/^node:20\.\d+\.\d+-[a-z]+-slim(@sha256:[a-f0-9]{64})?$/);
  });

  it('builds from the lockfile, then deploys this service alone with its production dependencies', () => {
    expect(runs.some((run) => /pnpm install --frozen-lockfile/.test(run))).toBe(true);
    expect(runs.some((run) => run.includes(`pnpm exec tsc -b services/${service}`))).toBe(true);
    expect(
      runs.some((run) => run.includes(`pnpm --filter "@sika/${service}..." --if-present run generate`)),
    ).toBe(true);
    const deploy = runs.find((run) => /pnpm --filter \S+ deploy /.test(run));
    expect(deploy).toContain(`pnpm --filter @sika/${service} deploy --prod`);
  });

  it('runs as an unprivileged numeric user, in production mode, with `node dist/main.js` and no HEALTHCHECK', () => {
    expect(
      all(runtime, 'ENV')
        .map((env) => env.args)
        .join(' '),
    ).toMatch(/\bNODE_ENV=production\b/);
    const user = all(runtime, 'USER').at(-1)?.args;
    expect(user).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    expect(all(runtime, 'CMD').map((cmd) => JSON.parse(cmd.args) as unknown)).toEqual([
      ['node', 'dist/main.js'],
    ]);
    expect(all(runtime, 'ENTRYPOINT')).toEqual([]);
    expect(text).not.toMatch(/^\s*HEALTHCHECK/im);
    // The runtime stage takes only the deployed folder from the build stage: no sources, no dev tools.
    expect(all(runtime, 'COPY').map((copy) => copy.args)).toEqual([`--from=${build.name!} /out/app ./`]);
    expect(all(runtime, 'RUN')).toEqual([]);
  });

  it('leaves out source maps and declarations, and matches the user the charts run it as', () => {
    expect(runs.join('\n')).toMatch(/-name '\*\.map'/);
    const values = readYaml<{ podSecurityContext: { runAsUser: number; runAsGroup: number } }>(
      'charts',
      service,
      'values.yaml',
    );
    expect(all(runtime, 'USER').at(-1)?.args).toBe(
      `${values.podSecurityContext.runAsUser}:${values.podSecurityContext.runAsGroup}`,
    );
  });

  it('carries what the migration Job runs, if the service has a database', () => {
    const migrations = readYaml<Json>('charts', service, 'values.yaml').migrations as
      { command: string[] } | undefined;
    if (!hasDatabase(service)) {
      expect(migrations).toBeUndefined();
      expect(text).not.toMatch(/prisma\.config\.ts/);
      return;
    }
    const all_ = runs.join('\n');
    // The Prisma schema (links resolved) and migrations where the Job's SIKA_PRISMA_* variables point.
    expect(all_).toContain(`cp -RL services/${service}/prisma /out/app/prisma`);
    // The root config, every scripts/db module it loads, and the Prisma CLI on the PATH.
    expect(all_).toContain('cp prisma.config.ts /out/app/migrate/');
    const modules = [...localImports('prisma.config.ts')];
    expect(modules).toEqual(
      expect.arrayContaining(['scripts/db/prisma-target.ts', 'scripts/db/schema-scoped-adapter.ts']),
    );
    for (const module of modules) {
      expect({ module, copied: all_.includes(module) }).toEqual({ module, copied: true });
    }
    expect(all_).toMatch(/npm install .*"prisma@\$\(node -p/);
    expect(
      all(runtime, 'ENV')
        .map((env) => env.args)
        .join(' '),
    ).toContain('PATH=/app/migrate/node_modules/.bin:$PATH');
    expect(migrations?.command).toEqual([
      'prisma',
      'migrate',
      'deploy',
      '--config',
      '/app/migrate/prisma.config.ts',
    ]);
  });
});

describe('.dockerignore', () => {
  const patterns = readText('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('keeps out what is built, generated, local or secret', () => {
    expect(patterns).toEqual(
      expect.arrayContaining(['**/node_modules', '**/dist', '.git', '**/.env', 'services/*/src/generated']),
    );
  });

  it('keeps in what the images build from', () => {
    for (const needed of [
      'scripts',
      'prisma.config.ts',
      'patches',
      'proto',
      'packages',
      'pnpm-lock.yaml',
      'services',
    ]) {
      expect(patterns).not.toContain(needed);
      expect(patterns.some((pattern) => pattern.startsWith(`${needed}/**`))).toBe(false);
    }
  });
});
