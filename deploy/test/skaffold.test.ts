import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';

import { named } from './support/kubernetes';
import { isObject, repoPath, serviceNames } from './support/repo';
import type { Json } from './support/repo';
import { renderUmbrella } from './support/renders';
import type { Manifest } from './support/tools';

// skaffold.yaml (and the dev infrastructure module k8s/skaffold.yaml) against the published JSON schema of
// apiVersion skaffold/v4beta14, as it is and with each profile's patches applied.

const schema = JSON.parse(
  readFileSync(path.join(__dirname, 'schemas', 'skaffold-v4beta14.json'), 'utf8'),
) as object;
// The schema carries skaffold's own annotations (x-intellij-html-description...): not strict about them.
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

function configs(file: string): Json[] {
  return parseAllDocuments(readFileSync(repoPath(file), 'utf8')).map((document) => document.toJSON() as Json);
}

function errorsOf(config: unknown): string[] {
  return validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

interface Patch {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** Skaffold applies a profile's patches as JSON patches (RFC 6902) to the config: the ops it uses here. */
function applyPatches(config: Json, patches: readonly Patch[]): Json {
  const result = structuredClone(config);
  for (const { op, path: pointer, value } of patches) {
    const keys = pointer.split('/').slice(1);
    const last = keys.pop()!;
    let parent: unknown = result;
    for (const key of keys) parent = (parent as Record<string, unknown>)[key];
    if (Array.isArray(parent)) {
      if (op === 'remove') parent.splice(Number(last), 1);
      else if (last === '-') parent.push(value);
      else parent.splice(Number(last), op === 'replace' ? 1 : 0, value);
    } else if (isObject(parent)) {
      if (op === 'remove') delete parent[last];
      else parent[last] = value;
    } else {
      throw new Error(`patch ${pointer}: no such parent`);
    }
  }
  return result;
}

const [main] = configs('skaffold.yaml') as [Json];
const profiles = (main.profiles as Array<Json & { name: string; patches?: Patch[] }>) ?? [];
const profile = (name: string) => profiles.find((candidate) => candidate.name === name)!;
const withProfile = (name: string) => applyPatches(main, profile(name).patches ?? []);
const release = (config: Json) => ((config.deploy as Json).helm as { releases: Json[] }).releases[0]!;

describe('skaffold.yaml', () => {
  it('is valid skaffold/v4beta14, and so is k8s/skaffold.yaml', () => {
    for (const file of ['skaffold.yaml', 'k8s/skaffold.yaml']) {
      for (const config of configs(file)) {
        expect(config.apiVersion).toBe('skaffold/v4beta14');
        expect({ file, errors: errorsOf(config) }).toEqual({ file, errors: [] });
      }
    }
  });

  it.each(['dev', 'prod'])('stays valid with the %s profile applied', (name) => {
    const { patches: _patches, name: _name, ...overlay } = profile(name);
    expect(errorsOf({ ...withProfile(name), ...overlay })).toEqual([]);
  });

  it('builds one artifact per service from the one Dockerfile with SERVICE=<service>, the workspace as context', () => {
    const artifacts = (
      main.build as {
        artifacts: Array<{
          image: string;
          context: string;
          docker: { dockerfile: string; buildArgs: Record<string, string> };
        }>;
      }
    ).artifacts;
    expect(artifacts.map((artifact) => artifact.image).sort()).toEqual(serviceNames());
    for (const artifact of artifacts) {
      expect(artifact.context).toBe('.');
      expect(artifact.docker.dockerfile).toBe('Dockerfile');
      expect(artifact.docker.buildArgs).toEqual({ SERVICE: artifact.image });
    }
    expect(existsSync(repoPath('Dockerfile'))).toBe(true);
  });

  it('deploys through the umbrella chart, handing each image to its service chart', () => {
    const sika = release(main) as Json & {
      setValueTemplates: Record<string, string>;
      setValues: Record<string, string>;
    };
    expect(sika.chartPath).toBe('charts/sika');
    expect(sika.skipBuildDependencies).toBe(true);
    expect(sika.setValues['global.image.registry']).toBe('');
    for (const service of serviceNames()) {
      // Skaffold's template variables name an artifact with `-` turned into `_`.
      const variable = service.replace(/-/g, '_');
      expect(sika.setValueTemplates[`${service}.image.repository`]).toBe(`{{.IMAGE_REPO_${variable}}}`);
      expect(sika.setValueTemplates[`${service}.image.tag`]).toBe(
        `{{.IMAGE_TAG_${variable}}}@{{.IMAGE_DIGEST_${variable}}}`,
      );
    }
  });

  it('dev: deploys the k8s/ infrastructure first, the dev values, and forwards the gateway and checkout-web', () => {
    const dev = withProfile('dev');
    const requires = dev.requires as Array<{ path: string }>;
    expect(requires.map((dependency) => dependency.path)).toEqual(['k8s/skaffold.yaml']);
    const [infra] = configs('k8s/skaffold.yaml') as [
      Json & { manifests: { kustomize: { paths: string[] } } },
    ];
    for (const kustomization of infra.manifests.kustomize.paths) {
      expect(existsSync(repoPath('k8s', kustomization, 'kustomization.yaml'))).toBe(true);
    }
    const valuesFiles = release(dev).valuesFiles as string[];
    expect(valuesFiles).toEqual(['charts/sika/values-dev.yaml']);
    const forwards = profile('dev').portForward as Array<{
      resourceName: string;
      port: number;
      localPort: number;
    }>;
    const rendered = renderUmbrella('dev');
    expect(forwards.map((forward) => `${forward.resourceName}:${forward.localPort}`).sort()).toEqual([
      'sika-checkout-web:8081',
      'sika-gateway:8080',
    ]);
    for (const forward of forwards) {
      const service = named<Manifest & { spec: { ports: Array<{ port: number }> } }>(
        rendered,
        'Service',
        forward.resourceName,
      );
      expect(service?.spec.ports.map((port) => port.port)).toContain(forward.port);
    }
  });

  it('prod: pushes commit-tagged images and deploys with values-production.yaml', () => {
    const prod = withProfile('prod');
    expect(release(prod).valuesFiles).toEqual(['charts/sika/values-production.yaml']);
    expect(((prod.build as Json).local as Json).push).toBe(true);
    expect((prod.build as Json).artifacts).toEqual((main.build as Json).artifacts);
    expect(existsSync(repoPath('charts/sika/values-production.yaml'))).toBe(true);
  });
});
