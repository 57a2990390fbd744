import { readlinkSync } from 'node:fs';

import { dbSchemaOf, describeServiceDatabase } from '../../scripts/db/service-databases';
import { SERVICE_RUNTIME_ENV } from '../../scripts/stack/services';
import { GRACE_PERIODS } from '@sika/platform';
import { loadServiceConfig } from './support/configs';
import type { ServiceConfig } from './support/configs';
import { named, ofKind, resolvePort } from './support/kubernetes';
import type { Container, EnvVar, Workload } from './support/kubernetes';
import { hasDatabase, isObject, readText, readYaml, repoPath, serviceNames } from './support/repo';
import type { Json } from './support/repo';
import { renderServiceChart, renderUmbrella, serviceCharts } from './support/renders';
import type { UmbrellaFlavour } from './support/renders';
import { kustomize, parseManifests } from './support/tools';
import type { Manifest } from './support/tools';

/** Read by the runtime (Node.js, glibc's malloc), not by a service's config schema. */
const RUNTIME_VARIABLES = new Set(Object.keys(SERVICE_RUNTIME_ENV));

// One name everywhere (folder = image = chart = artifact), and the charts agree with the code they deploy:
// the variables each src/config.ts requires, the ports each service listens on, its shutdown time, its
// database schema.

const SERVICES = serviceNames();

interface ServiceManifest extends Manifest {
  spec: {
    selector: Record<string, string>;
    ports: Array<{ name: string; port: number; targetPort: string | number }>;
  };
}

function serverContainer(manifests: Manifest[], service: string): Container {
  const deployment = named<Workload>(manifests, 'Deployment', `sika-${service}`);
  if (deployment === undefined) throw new Error(`no Deployment sika-${service}`);
  return deployment.spec.template.spec.containers[0]!;
}

function envOf(container: Container): Map<string, EnvVar> {
  return new Map((container.env ?? []).map((variable) => [variable.name, variable]));
}

/** The renders a service appears in: the umbrella's three flavours (when installed) and its chart alone. */
function rendersOf(service: string): Array<[string, Manifest[]]> {
  const renders: Array<[string, Manifest[]]> = (['default', 'production', 'dev'] as UmbrellaFlavour[])
    .map((flavour): [string, Manifest[]] => [`umbrella (${flavour})`, renderUmbrella(flavour)])
    .filter(([, manifests]) => named(manifests, 'Deployment', `sika-${service}`) !== undefined);
  renders.push([`charts/${service} alone`, renderServiceChart(service, 'default')]);
  renders.push([`charts/${service} alone, production-like`, renderServiceChart(service, 'production')]);
  return renders;
}

describe('one name everywhere', () => {
  const skaffold = readYaml<Json>('skaffold.yaml');
  const artifacts = ((skaffold.build as Json).artifacts as Json[]).map(
    (artifact) => artifact.image as string,
  );
  const artifactBuildArgs = new Map(
    ((skaffold.build as Json).artifacts as Json[]).map((artifact) => [
      artifact.image as string,
      (artifact.docker as Json).buildArgs,
    ]),
  );
  const umbrella = readYaml<{ dependencies: Array<{ name: string; repository: string }> }>(
    'charts/sika/Chart.yaml',
  );

  it('has the same list of services in services/, charts/, the umbrella chart and skaffold.yaml', () => {
    expect(serviceCharts()).toEqual(SERVICES);
    expect(umbrella.dependencies.map((dependency) => dependency.name).sort()).toEqual(SERVICES);
    expect([...artifacts].sort()).toEqual(SERVICES);
  });

  it.each(SERVICES)(
    '%s: image build argument, chart, umbrella entry and skaffold artifact carry its name',
    (service) => {
      // Its image is the one Dockerfile with SERVICE=<service>, which deploys @sika/<service>
      // (scripts/docker/deploy-service.sh, see dockerfiles.test.ts).
      expect(artifactBuildArgs.get(service)).toEqual({ SERVICE: service });
      expect(readText('scripts', 'docker', 'deploy-service.sh')).toContain(
        'pnpm --filter "@sika/$service" deploy --prod',
      );
      expect(readYaml<Json>('services', service, 'package.json').name).toBe(`@sika/${service}`);
      expect(readYaml<Json>('charts', service, 'Chart.yaml').name).toBe(service);
      expect((readYaml<Json>('charts', service, 'values.yaml').image as Json).repository).toBe(service);
      expect(umbrella.dependencies.find((d) => d.name === service)?.repository).toBe(`file://../${service}`);
      // The dependencies are present as links, so the charts install from a clone without a build step.
      expect(readlinkSync(repoPath('charts', 'sika', 'charts', service))).toBe(`../../${service}`);
      expect(readlinkSync(repoPath('charts', service, 'charts', 'sika-lib'))).toBe('../../sika-lib');
    },
  );
});

describe.each(SERVICES)('%s: environment', (service) => {
  let config: ServiceConfig;
  beforeAll(async () => {
    config = await loadServiceConfig(service);
  });

  it('sets every variable its config schema requires, in every render', () => {
    for (const [render, manifests] of rendersOf(service)) {
      const env = envOf(serverContainer(manifests, service));
      const missing = config.required.filter((name) => !env.has(name));
      expect({ render, missing }).toEqual({ render, missing: [] });
    }
  });

  it('runs with the heap and malloc arenas the local stack runs with, which the benchmark measured', () => {
    for (const [render, manifests] of rendersOf(service)) {
      const env = envOf(serverContainer(manifests, service));
      const runtime = Object.fromEntries(
        Object.keys(SERVICE_RUNTIME_ENV).map((name) => [name, env.get(name)?.value]),
      );
      expect({ render, runtime }).toEqual({ render, runtime: SERVICE_RUNTIME_ENV });
    }
  });

  it('sets only variables the config schema knows, with values it accepts', () => {
    for (const [render, manifests] of rendersOf(service)) {
      for (const variable of serverContainer(manifests, service).env ?? []) {
        expect({
          render,
          variable: variable.name,
          known: config.variables.includes(variable.name) || RUNTIME_VARIABLES.has(variable.name),
        }).toMatchObject({
          known: true,
        });
        if (variable.value !== undefined && !RUNTIME_VARIABLES.has(variable.name)) {
          expect({
            render,
            ...variable,
            accepted: config.accepts(variable.name, variable.value),
          }).toMatchObject({
            accepted: true,
          });
        }
      }
    }
  });

  it('starts on a dev cluster: the rendered variables and the dev Secrets of k8s/ pass the whole schema', () => {
    const manifests = renderUmbrella('dev');
    if (named(manifests, 'Deployment', `sika-${service}`) === undefined) return;
    const secrets = devSecrets();
    const env: Record<string, string> = {};
    for (const variable of serverContainer(manifests, service).env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      const value = ref ? secrets.get(ref.name)?.[ref.key] : variable.value;
      // loadConfig treats an empty variable as a missing one.
      if (value !== undefined && value !== '') env[variable.name] = value;
    }
    const result = config.schema.safeParse(env);
    expect(result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? []).toEqual(
      [],
    );
  });
});

describe.each(SERVICES)('%s: ports', (service) => {
  let config: ServiceConfig;
  beforeAll(async () => {
    config = await loadServiceConfig(service);
  });

  it('listens on the ports of its container, its Service and its probes', () => {
    const manifests = renderServiceChart(service, 'default');
    const container = serverContainer(manifests, service);
    const env = envOf(container);
    const portVariables = config.variables.filter((name) => /_PORT$/.test(name));
    expect(portVariables.length).toBeGreaterThan(0);
    const listening = new Map<string, number>();
    for (const name of portVariables) {
      const value = Number(env.get(name)?.value);
      expect({ name, value }).toEqual({ name, value: expect.any(Number) });
      listening.set(name, value);
    }
    const containerPorts = (container.ports ?? []).map((port) => port.containerPort).sort();
    expect(containerPorts).toEqual([...listening.values()].sort());

    const service_ = named<ServiceManifest>(manifests, 'Service', `sika-${service}`)!;
    for (const port of service_.spec.ports) {
      expect(port.port).toBe(resolvePort(container, port.targetPort));
    }
    expect(service_.spec.ports.map((port) => port.port).sort()).toEqual(containerPorts);

    // Every probe on the operations port (METRICS_PORT), which no Ingress routes to: the gRPC port takes only
    // mutual TLS, which Kubernetes' grpc probe cannot do, and the public HTTP ports serve /healthz only.
    const healthPort = listening.get('METRICS_PORT');
    expect(healthPort).toEqual(expect.any(Number));
    for (const probe of [container.startupProbe, container.livenessProbe]) {
      expect(probe?.httpGet?.path).toBe('/healthz');
      expect(resolvePort(container, probe!.httpGet!.port)).toBe(healthPort);
    }
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(resolvePort(container, container.readinessProbe!.httpGet!.port)).toBe(healthPort);
  });
});

describe('calls between services', () => {
  it.each(['default', 'production', 'dev'] as const)(
    'every *_GRPC_ADDRESS and in-cluster URL points at a Service port of the release (%s values)',
    (flavour) => {
      const manifests = renderUmbrella(flavour);
      const services = ofKind<ServiceManifest>(manifests, 'Service');
      const addresses = ofKind<Workload>(manifests, 'Deployment').flatMap((deployment) =>
        (deployment.spec.template.spec.containers[0]!.env ?? []).flatMap((variable) => {
          const value = variable.value ?? '';
          if (variable.name.endsWith('_GRPC_ADDRESS')) return [{ variable: variable.name, address: value }];
          const url = /^http:\/\/(sika-[a-z-]+:\d+)(\/|$)/.exec(value);
          return url ? [{ variable: variable.name, address: url[1]! }] : [];
        }),
      );
      expect(addresses.length).toBeGreaterThan(0);
      for (const { variable, address } of addresses) {
        const [host, port] = address.split(':');
        const target = services.find((service) => service.metadata.name === host);
        expect({ variable, address, found: target?.spec.ports.some((p) => p.port === Number(port)) }).toEqual(
          {
            variable,
            address,
            found: true,
          },
        );
      }
    },
  );
});

describe.each(SERVICES)('%s: termination and database', (service) => {
  it('gets a grace period longer than the preStop pause plus the shutdown timeout of its main.ts', () => {
    // Every main.ts stops through runService, within @sika/platform's GRACE_PERIODS.
    expect(readText('services', service, 'src', 'main.ts')).toMatch(/^runService\('/m);
    const timeoutMs = GRACE_PERIODS.shutdownMs;
    const deployment = named<Workload>(
      renderServiceChart(service, 'default'),
      'Deployment',
      `sika-${service}`,
    )!;
    const spec = deployment.spec.template.spec;
    const pauseSeconds = Number(spec.containers[0]!.lifecycle?.preStop?.exec?.command[1] ?? 0);
    expect(spec.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(pauseSeconds * 1000 + timeoutMs);
  });

  it('migrates its own Postgres schema, the one scripts/db gives it', () => {
    const job = named<Workload>(renderServiceChart(service, 'default'), 'Job', `sika-${service}-migrate`);
    if (!hasDatabase(service)) {
      expect(job).toBeUndefined();
      return;
    }
    const schema = job!.spec.template.spec.containers[0]!.env?.find(
      (v) => v.name === 'SIKA_DB_SCHEMA',
    )?.value;
    expect(schema).toBe(dbSchemaOf(repoPath('services', service)));
    expect((readYaml<Json>('charts', service, 'values.yaml').database as Json).schema).toBe(schema);
  });
});

describe('the dev infrastructure', () => {
  it('provisions a role and a schema for exactly the services that have a database', () => {
    const script = readText('k8s', 'base', 'postgres', 'provision-sika.sh');
    const schemas = /^SCHEMAS="([^"]*)"/m.exec(script)?.[1]?.split(/\s+/).sort();
    const expected = SERVICES.filter(hasDatabase)
      .map((service) => dbSchemaOf(repoPath('services', service)))
      .sort();
    expect(schemas).toEqual(expected);
  });

  it("logs each migration Job in as its schema's owner role and each service as its runtime role", () => {
    const secrets = devSecrets();
    const manifests = renderUmbrella('dev');
    const loginOf = (workload: Workload | undefined): string | undefined => {
      const ref = workload?.spec.template.spec.containers[0]!.env?.find((v) => v.name === 'DATABASE_URL')
        ?.valueFrom?.secretKeyRef;
      const url = ref && secrets.get(ref.name)?.[ref.key];
      return url && decodeURIComponent(new URL(url).username);
    };
    for (const service of SERVICES.filter(hasDatabase)) {
      const roles = describeServiceDatabase(repoPath('services', service));
      expect({
        service,
        migrations: loginOf(named<Workload>(manifests, 'Job', `sika-${service}-migrate`)),
        runtime: loginOf(named<Workload>(manifests, 'Deployment', `sika-${service}`)),
      }).toEqual({ service, migrations: roles?.ownerRole, runtime: roles?.runtimeRole });
    }
  });

  it('holds every Secret key the dev release reads', () => {
    const secrets = devSecrets();
    const manifests = renderUmbrella('dev');
    for (const workload of [
      ...ofKind<Workload>(manifests, 'Deployment'),
      ...ofKind<Workload>(manifests, 'Job'),
    ]) {
      for (const variable of workload.spec.template.spec.containers[0]!.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (ref === undefined) continue;
        expect({ ...ref, present: secrets.get(ref.name)?.[ref.key] !== undefined }).toEqual({
          ...ref,
          present: true,
        });
      }
    }
  });
});

let devSecretsCache: Map<string, Record<string, string>> | undefined;

/** The Secrets of k8s/overlays/dev, decoded: name -> key -> value. */
function devSecrets(): Map<string, Record<string, string>> {
  if (devSecretsCache) return devSecretsCache;
  const build = kustomize(['build', repoPath('k8s', 'overlays', 'dev')]);
  if (!build.ok) throw new Error(build.stderr);
  devSecretsCache = new Map(
    ofKind<Manifest & { data?: Json }>(parseManifests(build.stdout), 'Secret').map((secret) => [
      secret.metadata.name,
      Object.fromEntries(
        Object.entries(isObject(secret.data) ? secret.data : {}).map(([key, value]) => [
          key,
          Buffer.from(String(value), 'base64').toString('utf8'),
        ]),
      ),
    ]),
  );
  return devSecretsCache;
}
