import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import { hasDatabase, readText, readYaml, repoPath, serviceNames } from './support/repo';
import type { Json } from './support/repo';

// No Docker engine runs the tests: each services/<name>/Dockerfile is read and held to the rules of the
// images (multi-stage, pinned slim Node 20, only this service and its workspace packages, production
// dependencies, non-root, no HEALTHCHECK, `node dist/main.js`), and to what the charts expect of it. The long
// build steps live in scripts/docker/*.sh, which the Dockerfiles call with their service's name: those calls are
// read as the script's text with that name in place of $service.

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

/** A RUN's command, without its --mount options. */
const command = (run: string): string => run.replace(/--mount=\S+\s*/g, '').trim();

/** `scripts/docker/<script>.sh <service>`, the only form in which a Dockerfile calls a build script. */
const SCRIPT_CALL = /^scripts\/docker\/([a-z-]+\.sh) ([a-z0-9-]+)$/;

/**
 * The steps a RUN performs: its command, or the commands of the build script it calls (comments dropped), with
 * its argument in place of $service.
 */
function steps(run: string): string {
  const call = SCRIPT_CALL.exec(command(run));
  if (!call) return run;
  const [, script, service] = call;
  return readText('scripts', 'docker', script!)
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replaceAll('$service', service!);
}

/** The scripts take the service's name as their only argument, as $service. */
const SCRIPTS = ['deploy-service.sh', 'bundle-migrations.sh'];
const STORE_CACHE = '--mount=type=cache,id=sika-pnpm-store,target=/pnpm/store';

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
  const calls = all(build, 'RUN').map((run) => run.args);
  const runs = calls.map(steps);

  it('is multi-stage, every stage from a Node 20 slim image pinned to a release', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages)
      expect(stage.from).toMatch(/^node:20\.\d+\.\d+-[a-z]+-slim(@sha256:[a-f0-9]{64})?$/);
  });

  it('builds from the lockfile, then deploys this service alone with its production dependencies', () => {
    expect(runs.some((run) => /pnpm install --frozen-lockfile/.test(run))).toBe(true);
    // scripts/docker/deploy-service.sh, called with this service's name, builds and deploys it.
    expect(calls.map(command)).toContain(`scripts/docker/deploy-service.sh ${service}`);
    expect(runs.some((run) => run.includes(`pnpm exec tsc -b "services/${service}"`))).toBe(true);
    expect(
      runs.some((run) => run.includes(`pnpm --filter "@sika/${service}..." --if-present run generate`)),
    ).toBe(true);
    const deploy = runs.find((run) => /pnpm --filter \S+ deploy /.test(run));
    expect(deploy).toContain(`pnpm --filter "@sika/${service}" deploy --prod`);
    // Every build script a Dockerfile calls is one of scripts/docker, for this service.
    for (const call of calls.map(command).filter((run) => run.includes('scripts/docker/'))) {
      const [, script, argument] = SCRIPT_CALL.exec(call) ?? [];
      expect({ call, script: SCRIPTS.includes(script!), argument }).toEqual({
        call,
        script: true,
        argument: service,
      });
    }
  });

  it('shares the lockfile layer with every image, and builds from the pnpm store it mounts as a cache', () => {
    // Up to `pnpm fetch`, every Dockerfile has the same instructions: one layer of packages for all images.
    const upToFetch = (stage: Stage) =>
      stage.instructions.slice(0, stage.instructions.findIndex((i) => i.args.includes('pnpm fetch')) + 1);
    const fetchLayer = upToFetch(build);
    expect(fetchLayer.at(-1)?.args.replace(/\s+/g, ' ')).toBe(
      `${STORE_CACHE} pnpm fetch --store-dir /pnpm/store`,
    );
    expect(all({ ...build, instructions: fetchLayer }, 'COPY').map((copy) => copy.args)).toEqual([
      'package.json pnpm-lock.yaml pnpm-workspace.yaml ./',
      'patches ./patches',
    ]);
    for (const other of serviceNames()) {
      const otherBuild = parseDockerfile(readText('services', other, 'Dockerfile'))[0]!;
      expect({ other, from: otherBuild.from, layer: upToFetch(otherBuild) }).toEqual({
        other,
        from: build.from,
        layer: fetchLayer,
      });
    }
    // Installing and deploying read that store, offline.
    for (const step of [/^pnpm install --frozen-lockfile/, /^scripts\/docker\/deploy-service\.sh /]) {
      const run = calls.find((call) => step.test(command(call)));
      expect(run).toMatch(new RegExp(`^${STORE_CACHE}\\s`));
      expect(steps(run!)).toMatch(/ --offline --store-dir \/pnpm\/store(\s|$)/m);
    }
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
      expect(runs.join('\n')).not.toMatch(/prisma\.config\.ts/);
      return;
    }
    const all_ = runs.join('\n');
    // scripts/docker/bundle-migrations.sh, called with this service's name once it is deployed in /out/app
    // (deploy-service.sh clears /out/app/prisma).
    const commands = calls.map(command);
    expect(commands.indexOf(`scripts/docker/bundle-migrations.sh ${service}`)).toBeGreaterThan(
      commands.indexOf(`scripts/docker/deploy-service.sh ${service}`),
    );
    // The Prisma schema (links resolved) and migrations where the Job's SIKA_PRISMA_* variables point.
    expect(all_).toContain(`cp -RL "services/${service}/prisma" /out/app/prisma`);
    // The root config, every scripts/db module it loads, and the Prisma CLI on the PATH.
    expect(all_).toContain('cp prisma.config.ts /out/app/migrate/');
    const modules = [...localImports('prisma.config.ts')];
    expect(modules).toEqual(
      expect.arrayContaining(['scripts/db/prisma-target.ts', 'scripts/db/schema-scoped-adapter.ts']),
    );
    for (const module of modules) {
      expect({ module, copied: all_.includes(module) }).toEqual({ module, copied: true });
    }
    // The Prisma CLI at the workspace's version.
    expect(all_).toMatch(
      /^prisma_version=\$\(node -p 'require\("\.\/node_modules\/prisma\/package\.json"\)\.version'\)$/m,
    );
    expect(all_).toMatch(/npm install .*"prisma@\$prisma_version"/);
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

describe.each(SCRIPTS)('scripts/docker/%s', (script) => {
  const text = readText('scripts', 'docker', script);

  it('runs as the Dockerfiles call it: executable, stops at the first failure, the service from its argument', () => {
    expect(statSync(repoPath('scripts', 'docker', script)).mode & 0o111).toBe(0o111);
    expect(text).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(text).toMatch(/^set -euo pipefail$/m);
    expect(text).toMatch(
      new RegExp(
        `^service=\\$\\{1:\\?usage: scripts/docker/${script.replace('.', '\\.')} <service>\\}$`,
        'm',
      ),
    );
    // The name only ever stands as $service, the form the Dockerfile checks above read it in.
    expect(text).not.toMatch(/\$\{service\}|\$1\b/);
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
      'scripts/docker',
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
