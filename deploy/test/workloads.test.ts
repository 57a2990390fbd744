import { hasDatabase, serviceNames } from './support/repo';
import {
  isHook,
  validateAll,
  matches,
  named,
  ofKind,
  serviceOf,
  workloads,
  type Container,
  type Workload,
} from './support/kubernetes';
import { renderServiceChart, renderUmbrella, serviceCharts, UMBRELLA } from './support/renders';
import { helmTemplate, helmTemplateError, type Manifest } from './support/tools';

// What every pod of a release must be, whatever the values: the rules of ISSUE 4, checked on what Helm
// renders (default, production-like and dev values, and each service chart on its own).

const RENDERS: Array<[string, () => Manifest[]]> = [
  ['umbrella, default values', () => renderUmbrella('default')],
  ['umbrella, production values', () => renderUmbrella('production')],
  ['umbrella, dev values', () => renderUmbrella('dev')],
  ...serviceCharts().map((service): [string, () => Manifest[]] => [
    `${service} alone`,
    () => renderServiceChart(service, 'default'),
  ]),
];

/** Variables that hold credentials or keys: only ever read from a Secret. */
const SECRET_VARIABLE = /^(DATABASE_URL|AMQP_URL|REDIS_URL)$|SECRET|PEPPER|_KEY$|CLIENT_ID$|PASSWORD/;

function containersOf(workload: Workload): Container[] {
  return [...workload.spec.template.spec.containers, ...(workload.spec.template.spec.initContainers ?? [])];
}

describe.each(RENDERS)('every pod (%s)', (_, render) => {
  const manifests = render();
  const pods = workloads(manifests);

  it('runs as non-root with the runtime seccomp profile and no API token', () => {
    for (const workload of pods) {
      const spec = workload.spec.template.spec;
      expect({ name: workload.metadata.name, ...spec.securityContext }).toMatchObject({
        name: workload.metadata.name,
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(spec.automountServiceAccountToken).toBe(false);
    }
  });

  it('has containers with a read-only root filesystem, no escalation, every capability dropped', () => {
    for (const container of pods.flatMap(containersOf)) {
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      expect(container.securityContext?.capabilities?.drop).toContain('ALL');
      expect(container.securityContext?.capabilities?.add ?? []).toEqual([]);
    }
  });

  it('mounts a writable /tmp, since the root filesystem is read-only', () => {
    for (const workload of pods) {
      const tmp = workload.spec.template.spec.containers[0]!.volumeMounts?.find(
        (m) => m.mountPath === '/tmp',
      );
      expect(tmp).toBeDefined();
      const volume = workload.spec.template.spec.volumes?.find((v) => v.name === tmp!.name);
      expect(volume?.emptyDir).toBeDefined();
    }
  });

  it('sets resource requests and limits on every container', () => {
    for (const container of pods.flatMap(containersOf)) {
      for (const bound of ['requests', 'limits'] as const) {
        expect(Object.keys(container.resources?.[bound] ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
    }
  });

  it('reads every credential from a Secret, and renders no Secret itself', () => {
    expect(ofKind(manifests, 'Secret')).toEqual([]);
    for (const container of pods.flatMap(containersOf)) {
      for (const variable of container.env ?? []) {
        if (!SECRET_VARIABLE.test(variable.name)) continue;
        expect({ name: variable.name, value: variable.value }).toEqual({
          name: variable.name,
          value: undefined,
        });
        expect(variable.valueFrom?.secretKeyRef?.name).toMatch(/\S/);
      }
    }
  });

  it('gives each Deployment startup, liveness and readiness probes, a PodDisruptionBudget and a NetworkPolicy', () => {
    const deployments = ofKind<Workload>(manifests, 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const container = deployment.spec.template.spec.containers[0]!;
      expect(container.startupProbe).toBeDefined();
      expect(container.livenessProbe).toBeDefined();
      expect(container.readinessProbe).toBeDefined();
      const labels = deployment.spec.template.metadata.labels;
      const budgets = ofKind(manifests, 'PodDisruptionBudget').filter((pdb) =>
        matches(
          (pdb as Manifest & { spec: { selector: { matchLabels: Record<string, string> } } }).spec.selector
            .matchLabels,
          labels,
        ),
      );
      expect(budgets).toHaveLength(1);
      const policies = ofKind(manifests, 'NetworkPolicy').filter((policy) =>
        matches(
          (policy as Manifest & { spec: { podSelector: { matchLabels: Record<string, string> } } }).spec
            .podSelector.matchLabels,
          labels,
        ),
      );
      expect(policies).toHaveLength(1);
    }
  });

  it('keeps the selector labels apart from the changing ones, and names within 63 characters', () => {
    for (const manifest of manifests) {
      expect(manifest.metadata.name.length).toBeLessThanOrEqual(63);
      expect(manifest.metadata.labels?.['app.kubernetes.io/part-of']).toBe('sika');
    }
    for (const deployment of ofKind<Workload>(manifests, 'Deployment')) {
      expect(Object.keys(deployment.spec.selector!.matchLabels).sort()).toEqual([
        'app.kubernetes.io/component',
        'app.kubernetes.io/instance',
        'app.kubernetes.io/name',
      ]);
    }
  });
});

describe('the umbrella chart', () => {
  const deploymentNames = (manifests: Manifest[]): string[] =>
    ofKind(manifests, 'Deployment')
      .map((manifest) => serviceOf(manifest)!)
      .sort();

  it('installs every service, the simulator included while test mode is enabled (the default)', () => {
    expect(deploymentNames(renderUmbrella('default'))).toEqual(serviceNames());
    const psp = named<Workload>(renderUmbrella('default'), 'Deployment', 'sika-psp-connector')!;
    const baseUrl = psp.spec.template.spec.containers[0]!.env?.find((v) => v.name === 'PISPI_TEST_BASE_URL');
    expect(baseUrl?.value).toBe('http://sika-pispi-simulator:8090');
  });

  it('leaves the simulator out, with all its objects, when test mode is disabled', () => {
    const production = renderUmbrella('production');
    expect(deploymentNames(production)).toEqual(serviceNames().filter((name) => name !== 'pispi-simulator'));
    expect(production.filter((manifest) => serviceOf(manifest) === 'pispi-simulator')).toEqual([]);
  });

  it('refuses test mode off without a sandbox for psp-connector to talk to', () => {
    expect(helmTemplateError(UMBRELLA, { set: ['global.testMode.enabled=false'] })).toMatch(
      /pispi\.test\.baseUrl is required/,
    );
  });

  it('renders an Ingress for the gateway and checkout-web only when enabled, to their http port', () => {
    expect(ofKind(renderUmbrella('default'), 'Ingress')).toEqual([]);
    const ingresses = ofKind<
      Manifest & {
        spec: {
          rules: Array<{
            http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> };
          }>;
        };
      }
    >(renderUmbrella('production'), 'Ingress');
    const backends = ingresses.flatMap((ingress) =>
      ingress.spec.rules.flatMap((rule) => rule.http.paths.map((p) => p.backend.service)),
    );
    expect(backends).toEqual(
      expect.arrayContaining([
        { name: 'sika-gateway', port: { name: 'http' } },
        { name: 'sika-checkout-web', port: { name: 'http' } },
      ]),
    );
    // The operations port (/metrics, /readyz) is never routed from outside.
    expect(backends.filter((backend) => backend.port.name !== 'http')).toEqual([]);
    for (const backend of backends) {
      const service = named<Manifest & { spec: { ports: Array<{ name: string }> } }>(
        renderUmbrella('production'),
        'Service',
        backend.name,
      );
      expect(service?.spec.ports.map((port) => port.name)).toContain(backend.port.name);
    }
  });

  it('adds a HorizontalPodAutoscaler, in place of a fixed replica count, only where enabled', () => {
    expect(ofKind(renderUmbrella('default'), 'HorizontalPodAutoscaler')).toEqual([]);
    const production = renderUmbrella('production');
    const autoscalers = ofKind<Manifest & { spec: { scaleTargetRef: { kind: string; name: string } } }>(
      production,
      'HorizontalPodAutoscaler',
    );
    expect(autoscalers.map((hpa) => hpa.spec.scaleTargetRef.name).sort()).toEqual([
      'sika-checkout-web',
      'sika-gateway',
    ]);
    for (const hpa of autoscalers) {
      const target = named<Workload & { spec: { replicas?: number } }>(
        production,
        'Deployment',
        hpa.spec.scaleTargetRef.name,
      );
      expect(target).toBeDefined();
      expect(target!.spec.replicas).toBeUndefined();
    }
  });

  it('takes images from global.image, and a service may pin its own', () => {
    const images = workloads(renderUmbrella('production')).map(
      (w) => w.spec.template.spec.containers[0]!.image,
    );
    for (const image of images) expect(image).toMatch(/^registry\.example\.com\/sika\/[a-z-]+:0\.1\.0$/);
    const pinned = helmTemplate(UMBRELLA, {
      set: ['ledger.image.digest=sha256:' + 'a'.repeat(64), 'ledger.image.registry=other.example.com'],
    });
    expect(
      named<Workload>(pinned, 'Deployment', 'sika-ledger')!.spec.template.spec.containers[0]!.image,
    ).toBe(`other.example.com/ledger@sha256:${'a'.repeat(64)}`);
  });
});

describe('extra volumes', () => {
  it('mount a Secret of certificates read-only beside /tmp, e.g. for a participant requiring mutual TLS', async () => {
    const manifests = helmTemplate('charts/psp-connector', {
      values: {
        extraVolumes: [{ name: 'pispi-certs', secret: { secretName: 'sika-pispi-certs' } }],
        extraVolumeMounts: [{ name: 'pispi-certs', mountPath: '/etc/sika/pispi', readOnly: true }],
      },
    });
    await validateAll(manifests);
    const spec = named<Workload>(manifests, 'Deployment', 'sika-psp-connector')!.spec.template.spec;
    expect(spec.containers[0]!.volumeMounts?.map((mount) => mount.mountPath)).toEqual([
      '/tmp',
      '/etc/sika/grpc-tls',
      '/etc/sika/pispi',
    ]);
    expect(spec.volumes?.map((volume) => volume.name)).toEqual(['tmp', 'grpc-tls', 'pispi-certs']);
  });
});

describe('database migrations', () => {
  const manifests = renderUmbrella('default');
  const databaseUrl = (container: Container) =>
    container.env?.find((v) => v.name === 'DATABASE_URL')?.valueFrom;

  it.each(serviceNames())(
    '%s: a pre-install/pre-upgrade Job with its own image, as the schema owner, if it has a database',
    (service) => {
      const job = named<Workload>(manifests, 'Job', `sika-${service}-migrate`);
      if (!hasDatabase(service)) {
        expect(job).toBeUndefined();
        return;
      }
      expect(job).toBeDefined();
      expect(isHook(job!)).toBe(true);
      expect(job!.metadata.annotations?.['helm.sh/hook']?.split(',').sort()).toEqual([
        'pre-install',
        'pre-upgrade',
      ]);
      const deployment = named<Workload>(manifests, 'Deployment', `sika-${service}`)!;
      const [migrate] = job!.spec.template.spec.containers;
      const [server] = deployment.spec.template.spec.containers;
      expect(migrate!.image).toBe(server!.image);
      // The owner's credentials are the Job's alone; the service runs as its runtime role.
      expect(databaseUrl(migrate!)).toEqual({
        secretKeyRef: { name: `sika-${service}-db-owner`, key: 'DATABASE_URL' },
      });
      expect(databaseUrl(server!)).toEqual({
        secretKeyRef: { name: `sika-${service}`, key: 'DATABASE_URL' },
      });
      expect(migrate!.command?.slice(0, 3)).toEqual(['prisma', 'migrate', 'deploy']);
      // Its pods are not the service's: the Service, the PodDisruptionBudget and the NetworkPolicy skip them.
      expect(matches(deployment.spec.selector!.matchLabels, job!.spec.template.metadata.labels)).toBe(false);
      const hookPolicy = named(manifests, 'NetworkPolicy', `sika-${service}-migrate`);
      expect(hookPolicy && isHook(hookPolicy)).toBe(true);
    },
  );

  it("reads the owner's credentials from the Secret and key migrations.ownerSecret names", () => {
    const manifests = helmTemplate('charts/ledger', {
      values: {
        migrations: { ownerSecret: { name: 'pg-ledger-owner', key: 'uri' } },
        secrets: { keys: { DATABASE_URL: { secret: 'pg-ledger-app', key: 'uri' } } },
      },
    });
    const job = named<Workload>(manifests, 'Job', 'sika-ledger-migrate')!;
    const deployment = named<Workload>(manifests, 'Deployment', 'sika-ledger')!;
    expect(databaseUrl(job.spec.template.spec.containers[0]!)).toEqual({
      secretKeyRef: { name: 'pg-ledger-owner', key: 'uri' },
    });
    expect(databaseUrl(deployment.spec.template.spec.containers[0]!)).toEqual({
      secretKeyRef: { name: 'pg-ledger-app', key: 'uri' },
    });
  });

  it('refuses an owner Secret without a key', () => {
    expect(
      helmTemplateError('charts/ledger', { values: { migrations: { ownerSecret: { key: '' } } } }),
    ).toMatch(/ownerSecret/);
  });
});
