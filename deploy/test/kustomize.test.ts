import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import {
  BROKER_SERVICES,
  brokerDefinitions,
  brokerUser,
  type BrokerService,
} from '../../packages/messaging/src/accounts';
import { ofKind, validateAll, workloads } from './support/kubernetes';
import type { Workload } from './support/kubernetes';
import { readText, repoPath } from './support/repo';
import { kustomize, parseManifests } from './support/tools';
import type { Manifest } from './support/tools';

// k8s/: development infrastructure as kustomize bases and overlays. Every kustomization builds, and what it
// builds is valid Kubernetes.

function kustomizations(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (existsSync(path.join(dir, 'kustomization.yaml'))) found.push(path.relative(repoPath(), dir));
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
    }
  };
  walk(repoPath(folder));
  return found.sort();
}

function build(dir: string): Manifest[] {
  const result = kustomize(['build', repoPath(dir)]);
  if (!result.ok) throw new Error(`kustomize build ${dir} failed:\n${result.stderr}`);
  const manifests = parseManifests(result.stdout);
  // kustomize wraps long base64 values over several lines; the API server's decoder skips the newlines,
  // the schema's `byte` format does not.
  for (const secret of ofKind<Manifest & { data?: Record<string, string> }>(manifests, 'Secret')) {
    for (const key of Object.keys(secret.data ?? {}))
      secret.data![key] = secret.data![key]!.replace(/\s/g, '');
  }
  return manifests;
}

describe('kustomize build', () => {
  it('finds the base and the dev overlay', () => {
    expect(kustomizations('k8s')).toEqual(expect.arrayContaining(['k8s/base', 'k8s/overlays/dev']));
  });

  it.each(kustomizations('k8s'))('%s builds valid Kubernetes objects', async (dir) => {
    const manifests = build(dir);
    expect(manifests.length).toBeGreaterThan(0);
    await validateAll(manifests);
  });
});

describe('the dev overlay', () => {
  const manifests = build('k8s/overlays/dev');
  const services = ofKind<Manifest & { spec: { ports: Array<{ port: number }> } }>(manifests, 'Service');

  it('holds the namespace, PostgreSQL, RabbitMQ and Redis, every namespaced object in "sika"', () => {
    expect(ofKind(manifests, 'Namespace').map((namespace) => namespace.metadata.name)).toEqual(['sika']);
    expect(
      workloads(manifests)
        .map((workload) => `${workload.kind}/${workload.metadata.name}`)
        .sort(),
    ).toEqual(['Deployment/redis', 'StatefulSet/postgres', 'StatefulSet/rabbitmq']);
    for (const manifest of manifests) {
      if (manifest.kind !== 'Namespace') expect(manifest.metadata.namespace).toBe('sika');
    }
  });

  it('pins every image to a version, RabbitMQ to one with quorum queues and at-least-once dead-lettering', () => {
    const images = workloads(manifests).flatMap((w) => w.spec.template.spec.containers.map((c) => c.image));
    for (const image of images) expect(image).toMatch(/^[a-z]+:\d+\.\d+(\.\d+)?(-[a-z]+)?$/);
    const rabbit = images.find((image) => image.startsWith('rabbitmq:'))!;
    const [major, minor] = rabbit.slice('rabbitmq:'.length).split('.').map(Number);
    expect(major! * 100 + minor!).toBeGreaterThanOrEqual(310);
  });

  it('runs the infrastructure as non-root, without privilege escalation, within limits', () => {
    for (const workload of workloads(manifests) as Workload[]) {
      expect(workload.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
      for (const container of workload.spec.template.spec.containers) {
        expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
        expect(container.securityContext?.capabilities?.drop).toContain('ALL');
        expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
    }
  });

  it('gives the services URLs that point at its own Services and ports', () => {
    const secrets = ofKind<Manifest & { data: Record<string, string> }>(manifests, 'Secret');
    const urls = secrets.flatMap((secret) =>
      Object.entries(secret.data)
        // An optional URL left empty (SMTP_URL: no relay in the dev cluster) points nowhere.
        .filter(([key, value]) => key.endsWith('_URL') && value !== '')
        .map(([key, value]) => ({
          secret: secret.metadata.name,
          key,
          url: new URL(Buffer.from(value, 'base64').toString()),
        })),
    );
    expect(urls.map(({ key }) => key)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'AMQP_URL', 'REDIS_URL']),
    );
    for (const { secret, key, url } of urls) {
      const target = services.find((service) => service.metadata.name === url.hostname);
      expect({
        secret,
        key,
        host: url.host,
        found: target?.spec.ports.some((p) => p.port === Number(url.port)),
      }).toEqual({
        secret,
        key,
        host: url.host,
        found: true,
      });
    }
  });

  it('provisions the roles the DATABASE_URLs log in with: owners for the migration Jobs, runtime roles else', () => {
    const script = readText('k8s', 'base', 'postgres', 'provision-sika.sh');
    const schemas = /^SCHEMAS="([^"]*)"/m.exec(script)![1]!.split(/\s+/);
    expect(script).toContain('owner="sika_${schema}_owner"');
    expect(script).toContain('runtime="sika_${schema}"');
    const secrets = ofKind<Manifest & { data: Record<string, string> }>(manifests, 'Secret');
    for (const secret of secrets) {
      const encoded = secret.data.DATABASE_URL;
      if (encoded === undefined) continue;
      const url = new URL(Buffer.from(encoded, 'base64').toString());
      expect(url.pathname).toBe('/sika');
      // Dev roles log in with their own name as password (provision-sika.sh).
      expect(url.password).toBe(url.username);
      const suffix = secret.metadata.name.endsWith('-db-owner') ? '_owner' : '';
      expect(schemas.map((schema) => `sika_${schema}${suffix}`)).toContain(url.username);
    }
  });

  it("provisions one RabbitMQ user per service, its AMQP_URL's, with what the events contract allows it", () => {
    const secrets = ofKind<Manifest & { data: Record<string, string> }>(manifests, 'Secret');
    const decode = (encoded: string) => Buffer.from(encoded, 'base64').toString();
    const amqpSecrets = secrets.filter((secret) => secret.data.AMQP_URL !== undefined);
    expect(amqpSecrets.map((secret) => secret.metadata.name).sort()).toEqual(
      BROKER_SERVICES.map((service) => `sika-${service}`).sort(),
    );
    const passwords = new Map<BrokerService, string>();
    for (const service of BROKER_SERVICES) {
      const url = new URL(
        decode(amqpSecrets.find((secret) => secret.metadata.name === `sika-${service}`)!.data.AMQP_URL!),
      );
      expect(decodeURIComponent(url.username)).toBe(brokerUser(service));
      passwords.set(service, decodeURIComponent(url.password));
    }
    const users = secrets.find((secret) => secret.metadata.name.startsWith('rabbitmq-users'))!;
    // On a mismatch, the expected value is the new content of k8s/overlays/dev/secrets/rabbitmq-users.json.
    expect(JSON.parse(decode(users.data['definitions.json']!))).toEqual(
      brokerDefinitions({ vhost: '/', passwordOf: (service) => passwords.get(service)! }),
    );
    const rabbit = workloads(manifests).find((workload) => workload.metadata.name === 'rabbitmq')!;
    expect(JSON.stringify(rabbit.spec.template.spec)).toContain(`"secretName":"${users.metadata.name}"`);
  });
});
