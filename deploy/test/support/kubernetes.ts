import type { Manifest } from './tools';

/**
 * Validation against the Kubernetes API schemas, offline: kubernetes-models has one class per kind, whose
 * validate() checks the object against the OpenAPI schema of that API version (types, required fields,
 * formats). A kind it does not know is a failure too.
 */
export async function validateManifest(manifest: Manifest): Promise<void> {
  const { apiVersion, kind } = manifest;
  const modulePath = apiVersion.includes('/') ? apiVersion : `v1`;
  const models = (await import(`kubernetes-models/${modulePath}`)) as Record<string, unknown>;
  const Model = models[kind] as (new (data: unknown) => { validate(): void }) | undefined;
  if (Model === undefined) throw new Error(`${apiVersion} ${kind}: no such kind in kubernetes-models`);
  try {
    new Model(manifest).validate();
  } catch (error) {
    throw new Error(`${kind} ${manifest.metadata.name}: ${(error as Error).message}`);
  }
}

export async function validateAll(manifests: readonly Manifest[]): Promise<void> {
  for (const manifest of manifests) await validateManifest(manifest);
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; [source: string]: unknown };
}

export interface Probe {
  grpc?: { port: number; service?: string };
  httpGet?: { path: string; port: number | string };
  [field: string]: unknown;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  ports?: Array<{ name?: string; containerPort: number }>;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  volumes?: Array<{ name: string; emptyDir?: unknown }>;
}

export interface Workload extends Manifest {
  spec: {
    selector?: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

export function workloads(manifests: readonly Manifest[]): Workload[] {
  return manifests.filter((manifest) => WORKLOAD_KINDS.has(manifest.kind)) as Workload[];
}

export function ofKind<T extends Manifest = Manifest>(manifests: readonly Manifest[], kind: string): T[] {
  return manifests.filter((manifest) => manifest.kind === kind) as T[];
}

export function named<T extends Manifest = Manifest>(
  manifests: readonly Manifest[],
  kind: string,
  name: string,
): T | undefined {
  return manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name) as
    T | undefined;
}

export function isHook(manifest: Manifest): boolean {
  return manifest.metadata.annotations?.['helm.sh/hook'] !== undefined;
}

/** The service a Sika object belongs to (app.kubernetes.io/name). */
export function serviceOf(manifest: Manifest): string | undefined {
  return manifest.metadata.labels?.['app.kubernetes.io/name'];
}

export function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** A container's port number for a probe or Service target given by name or number. */
export function resolvePort(container: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}
