import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import { hasDatabase, readText, readYaml, repoPath, serviceNames } from './support/repo';
import type { Json } from './support/repo';

// No Docker engine runs the tests: the one Dockerfile is read and held to the rules of the images
// (multi-stage, one pinned slim Node release of the Active LTS line, a service chosen by ARG SERVICE, only that
// service and its workspace packages, production dependencies, non-root, no HEALTHCHECK, `node dist/main.js`),
// to the layer order that keeps a source change from reinstalling dependencies, and to what the charts expect
// of every service. The long build steps live in scripts/docker/*.sh, which the Dockerfile calls with
// "$SERVICE": those calls are read as the script's text with a service's name in place of $service.

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

/** `scripts/docker/<script>.sh "$SERVICE"`, the form in which the Dockerfile calls a build script. */
const SCRIPT_CALL = /scripts\/docker\/([a-z-]+\.sh) "\$SERVICE"/;

/** The commands of a build script (comments dropped), as they run for `service`. */
function scriptSteps(script: string, service: string): string {
  return readText('scripts', 'docker', script)
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replaceAll('$service', service);
}

/**
 * The Active LTS major the images run: Node 26 is LTS from 2026-10-28, maintenance from 2027-10-20, end of
 * life 2029-04-30 (the Node.js release schedule). Move to the next LTS line by its October.
 */
const LTS_MAJOR = 26;

/** The Node release of an image `node:<release>-<variant>[@digest]`. */
const release = (image: string): string => /^node:(\d+\.\d+\.\d+)-/.exec(image)?.[1] ?? image;

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

const text = readText('Dockerfile');
const stages = parseDockerfile(text);
const build = stages.find((stage) => stage.name === 'build')!;
const runtime = stages.at(-1)!;
const calls = all(build, 'RUN').map((run) => run.args);
const position = (predicate: (instruction: Instruction) => boolean) =>
  build.instructions.findIndex(predicate);

describe('the Dockerfile', () => {
  it('is the only one: no service keeps a Dockerfile of its own', () => {
    for (const service of serviceNames()) {
      expect({ service, own: existsSync(repoPath('services', service, 'Dockerfile')) }).toEqual({
        service,
        own: false,
      });
    }
  });

  it(`is multi-stage, every stage from one Node ${LTS_MAJOR} slim image pinned to a release`, () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages)
      expect(stage.from).toMatch(
        new RegExp(`^node:${LTS_MAJOR}\\.\\d+\\.\\d+-[a-z]+-slim(@sha256:[a-f0-9]{64})?$`),
      );
    // scripts/infra/ensure-node-lts.sh installs the release it reads from these lines for the tests: one for all.
    expect(new Set(stages.map((stage) => release(stage.from))).size).toBe(1);
  });

  it('runs on a Node that package.json admits, and scripts/test.sh runs the tests on its release', () => {
    const { engines } = JSON.parse(readText('package.json')) as { engines: { node: string } };
    expect(engines.node.split('||').map((range) => range.trim())).toContainEqual(
      expect.stringMatching(new RegExp(`^(\\^|>=)${LTS_MAJOR}\\.`)),
    );
    expect(readText('scripts', 'test.sh')).toMatch(/^node_bin=\$\(bash scripts\/infra\/stack-node\.sh\)$/m);
    expect(readText('scripts', 'test.sh')).toMatch(/"\$node_bin" scripts\/run-tests\.mjs "\$@"$/m);
  });

  it('shares the lockfile layer with every image, and builds from the pnpm store it mounts as a cache', () => {
    const fetchAt = position((i) => i.args.includes('pnpm fetch'));
    const fetchLayer = build.instructions.slice(0, fetchAt + 1);
    expect(fetchLayer.at(-1)?.args.replace(/\s+/g, ' ')).toBe(
      `${STORE_CACHE} pnpm fetch --store-dir /pnpm/store`,
    );
    expect(all({ ...build, instructions: fetchLayer }, 'COPY').map((copy) => copy.args)).toEqual([
      'package.json pnpm-lock.yaml pnpm-workspace.yaml ./',
      'patches ./patches',
    ]);
    // Installing and deploying read that store, offline.
    const install = calls.find((call) => /^pnpm install --frozen-lockfile/.test(command(call)));
    expect(install).toMatch(new RegExp(`^${STORE_CACHE}\\s`));
    expect(install).toMatch(/ --offline --store-dir \/pnpm\/store$/);
    const deploy = calls.find((call) => command(call).startsWith('scripts/docker/deploy-service.sh'));
    expect(deploy).toMatch(new RegExp(`^${STORE_CACHE}\\s`));
    expect(scriptSteps('deploy-service.sh', 'payments')).toMatch(
      / --offline --store-dir \/pnpm\/store(\s|$)/m,
    );
  });

  it('installs the workspace from its package.json files alone, before any source: a source change reuses it', () => {
    const manifests = stages.find((stage) => stage.name === 'manifests')!;
    // That stage keeps the package.json files of the context, and nothing else.
    expect(all(manifests, 'RUN').map((run) => run.args.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(
        /^mkdir \/manifests && find \. -name package\.json -not -path '\*\/node_modules\/\*' -exec cp --parents \{\} \/manifests\/ \\;$/,
      ),
    ]);
    const fromManifests = position(
      (i) => i.keyword === 'COPY' && i.args === '--from=manifests /manifests/ ./',
    );
    const install = position(
      (i) => i.keyword === 'RUN' && command(i.args).startsWith('pnpm install --frozen-lockfile'),
    );
    const sources = position((i) => i.keyword === 'COPY' && i.args === '. .');
    const service = position((i) => i.keyword === 'ARG' && i.args === 'SERVICE');
    expect(fromManifests).toBeGreaterThan(position((i) => i.args.includes('pnpm fetch')));
    expect(install).toBeGreaterThan(fromManifests);
    expect(sources).toBeGreaterThan(install);
    // The service is chosen after every shared layer, so that all images reuse them.
    expect(service).toBeGreaterThan(sources);
    expect(build.instructions.slice(0, service).some((i) => i.args.includes('SERVICE'))).toBe(false);
  });

  it.each(serviceNames())(
    'builds and deploys %s alone with its production dependencies, when SERVICE names it',
    (service) => {
      expect(existsSync(repoPath('services', service, 'package.json'))).toBe(true);
      const commands = calls.map(command);
      expect(commands).toContain('scripts/docker/deploy-service.sh "$SERVICE"');
      const steps = scriptSteps('deploy-service.sh', service);
      expect(steps).toContain(`pnpm exec tsc -b "services/${service}"`);
      expect(steps).toContain(`pnpm --filter "@sika/${service}..." --if-present run generate`);
      expect(steps).toContain(`pnpm --filter "@sika/${service}" deploy --prod`);
      // Every build script it calls is one of scripts/docker, with the service as argument.
      for (const call of commands.filter((run) => run.includes('scripts/docker/'))) {
        const [, script] = SCRIPT_CALL.exec(call) ?? [];
        expect({ call, script: SCRIPTS.includes(script!) }).toEqual({ call, script: true });
      }
    },
  );

  it('refuses to build without a SERVICE that names a folder of services/', () => {
    expect(calls.map(command)).toContain(
      'test -f "services/${SERVICE:?build with --build-arg SERVICE=<a folder of services/>}/package.json"',
    );
  });

  it('runs as an unprivileged numeric user, in production mode, with `node dist/main.js`, no HEALTHCHECK nor EXPOSE', () => {
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
    // Ports are each chart's: one image definition serves services listening on different ones.
    expect(text).not.toMatch(/^\s*EXPOSE/im);
    // The runtime stage takes only the deployed folder from the build stage: no sources, no dev tools.
    expect(all(runtime, 'COPY').map((copy) => copy.args)).toEqual([`--from=${build.name!} /out/app ./`]);
    expect(all(runtime, 'RUN')).toEqual([]);
  });

  it.each(serviceNames())(
    'leaves out source maps and declarations, and runs %s as the user its chart expects',
    (service) => {
      expect(scriptSteps('deploy-service.sh', service)).toMatch(/-name '\*\.map'/);
      const values = readYaml<{ podSecurityContext: { runAsUser: number; runAsGroup: number } }>(
        'charts',
        service,
        'values.yaml',
      );
      expect(all(runtime, 'USER').at(-1)?.args).toBe(
        `${values.podSecurityContext.runAsUser}:${values.podSecurityContext.runAsGroup}`,
      );
    },
  );

  it.each(serviceNames())('carries what the migration Job of %s runs, if it has a database', (service) => {
    const migrations = readYaml<Json>('charts', service, 'values.yaml').migrations as
      { command: string[] } | undefined;
    const commands = calls.map(command);
    const bundle =
      'if [ -d "services/$SERVICE/prisma" ]; then scripts/docker/bundle-migrations.sh "$SERVICE"; fi';
    // Bundled once deployed in /out/app (deploy-service.sh clears /out/app/prisma), for a service with prisma/.
    expect(commands.indexOf(bundle)).toBeGreaterThan(
      commands.indexOf('scripts/docker/deploy-service.sh "$SERVICE"'),
    );
    expect(existsSync(repoPath('services', service, 'prisma'))).toBe(hasDatabase(service));
    if (!hasDatabase(service)) {
      expect(migrations).toBeUndefined();
      return;
    }
    const steps = scriptSteps('bundle-migrations.sh', service);
    // The Prisma schema (links resolved) and migrations where the Job's SIKA_PRISMA_* variables point.
    expect(steps).toContain(`cp -RL "services/${service}/prisma" /out/app/prisma`);
    // The root config, every scripts/db module it loads, and the Prisma CLI on the PATH.
    expect(steps).toContain('cp prisma.config.ts /out/app/migrate/');
    const modules = [...localImports('prisma.config.ts')];
    expect(modules).toEqual(
      expect.arrayContaining(['scripts/db/prisma-target.ts', 'scripts/db/schema-scoped-adapter.ts']),
    );
    for (const module of modules) {
      expect({ module, copied: steps.includes(module) }).toEqual({ module, copied: true });
    }
    // The Prisma CLI at the workspace's version.
    expect(steps).toMatch(
      /^prisma_version=\$\(node -p 'require\("\.\/node_modules\/prisma\/package\.json"\)\.version'\)$/m,
    );
    expect(steps).toMatch(/npm install .*"prisma@\$prisma_version"/);
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

  it('runs as the Dockerfile calls it: executable, stops at the first failure, the service from its argument', () => {
    expect(statSync(repoPath('scripts', 'docker', script)).mode & 0o111).toBe(0o111);
    expect(text).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(text).toMatch(/^set -euo pipefail$/m);
    expect(text).toMatch(
      new RegExp(
        `^service=\\$\\{1:\\?usage: scripts/docker/${script.replace('.', '\\.')} <service>\\}$`,
        'm',
      ),
    );
    // The name only ever stands as $service, the form the checks above read it in.
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
