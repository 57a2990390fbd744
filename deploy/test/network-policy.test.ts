import { isHook, ofKind, resolvePort, serviceOf } from './support/kubernetes';
import type { Workload } from './support/kubernetes';
import { renderUmbrella } from './support/renders';
import type { Manifest } from './support/tools';

// The NetworkPolicies allow exactly the calls of ARCHITECTURE.md between the services of a release, and
// nothing else: each edge must be open on both ends (egress of the caller, ingress of the callee).

type Peer = {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: unknown;
  ipBlock?: { cidr: string; except?: string[] };
};
type Rule = { ports?: Array<{ port: number | string; protocol?: string }>; from?: Peer[]; to?: Peer[] };
interface NetworkPolicy extends Manifest {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress?: Rule[];
    egress?: Rule[];
  };
}

/** caller -> callee:port name, as in ARCHITECTURE.md (the gRPC and HTTP calls between services). */
const ARCHITECTURE_EDGES = [
  'gateway -> merchants:grpc',
  'gateway -> payments:grpc',
  'gateway -> ledger:grpc',
  'gateway -> payouts:grpc',
  'gateway -> webhook-dispatcher:grpc',
  'gateway -> pispi-simulator:http',
  'checkout-web -> payments:grpc',
  'dashboard-web -> merchants:grpc',
  'dashboard-web -> payments:grpc',
  'dashboard-web -> ledger:grpc',
  'dashboard-web -> webhook-dispatcher:grpc',
  'dashboard-web -> payouts:grpc',
  'dashboard-web -> pispi-simulator:http',
  'payouts -> ledger:grpc',
  'payouts -> psp-connector:grpc',
  'ledger -> payments:grpc',
  'ledger -> payouts:grpc',
  'payments -> psp-connector:grpc',
  'payments -> merchants:grpc',
  'psp-connector -> pispi-simulator:http',
  'pispi-simulator -> psp-connector:http',
].sort();

function analyse(manifests: Manifest[]) {
  const policies = ofKind<NetworkPolicy>(manifests, 'NetworkPolicy').filter((policy) => !isHook(policy));
  const containers = new Map(
    ofKind<Workload>(manifests, 'Deployment').map((d) => [
      serviceOf(d)!,
      d.spec.template.spec.containers[0]!,
    ]),
  );
  const portName = (service: string, port: number | string): string => {
    const container = containers.get(service)!;
    const number = resolvePort(container, port);
    return container.ports?.find((candidate) => candidate.containerPort === number)?.name ?? String(port);
  };
  const peerService = (peer: Peer): string | undefined =>
    peer.podSelector?.matchLabels?.['app.kubernetes.io/name'];

  const ingress = new Set<string>();
  const egress = new Set<string>();
  const openIngress: string[] = [];
  /** Egress to addresses outside the cluster: `service:port` for the internet (0.0.0.0/0), else `service:port:cidr`. */
  const internetEgress: string[] = [];
  for (const policy of policies) {
    const self = policy.spec.podSelector.matchLabels['app.kubernetes.io/name']!;
    for (const rule of policy.spec.ingress ?? []) {
      for (const port of rule.ports ?? []) {
        const name = portName(self, port.port);
        if (rule.from === undefined) openIngress.push(`${self}:${name}`);
        for (const peer of rule.from ?? []) {
          const caller = peerService(peer);
          if (caller && peer.namespaceSelector === undefined) ingress.add(`${caller} -> ${self}:${name}`);
        }
      }
    }
    for (const rule of policy.spec.egress ?? []) {
      for (const peer of rule.to ?? []) {
        const callee = peerService(peer);
        for (const port of rule.ports ?? []) {
          if (callee && containers.has(callee))
            egress.add(`${self} -> ${callee}:${portName(callee, port.port)}`);
          const cidr = peer.ipBlock?.cidr;
          if (cidr === '0.0.0.0/0') internetEgress.push(`${self}:${port.port}`);
          else if (cidr !== undefined && !cidr.includes(':'))
            internetEgress.push(`${self}:${port.port}:${cidr}`);
        }
      }
    }
  }
  return { policies, containers, ingress, egress, openIngress, internetEgress };
}

describe('NetworkPolicies of a release with default values', () => {
  const manifests = renderUmbrella('default');
  const { policies, containers, ingress, egress, openIngress, internetEgress } = analyse(manifests);

  it('select each service once, and restrict both directions', () => {
    expect(
      policies.map((policy) => policy.spec.podSelector.matchLabels['app.kubernetes.io/name']).sort(),
    ).toEqual([...containers.keys()].sort());
    for (const policy of policies) expect(policy.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
  });

  it('allow exactly the calls between services that ARCHITECTURE.md describes', () => {
    const betweenServices = (edges: Set<string>) =>
      [...edges].filter((edge) => !edge.endsWith(':metrics')).sort();
    expect(betweenServices(ingress)).toEqual(ARCHITECTURE_EDGES);
    expect(betweenServices(egress)).toEqual(ARCHITECTURE_EDGES);
  });

  it('leave open to any source only the public HTTP ports and the metrics ports', () => {
    const metricsPorts = [...containers.entries()]
      .filter(([, container]) => container.ports?.some((port) => port.name === 'metrics'))
      .map(([service]) => `${service}:metrics`);
    // Every service has its operations port, HTTP services too: /metrics and /readyz stay off the public ports.
    expect(metricsPorts).toHaveLength(containers.size);
    expect(openIngress.sort()).toEqual(
      ['checkout-web:http', 'dashboard-web:http', 'gateway:http', ...metricsPorts].sort(),
    );
  });

  it('let operators (the CLI) reach merchants, webhook-dispatcher and payouts, and no other service', () => {
    const operatorTargets = policies
      .filter((policy) =>
        (policy.spec.ingress ?? []).some((rule) =>
          (rule.from ?? []).some((peer) => peer.podSelector?.matchLabels?.['sika/operator'] === 'true'),
        ),
      )
      .map((policy) => policy.spec.podSelector.matchLabels['app.kubernetes.io/name']);
    expect(operatorTargets.sort()).toEqual(['merchants', 'payouts', 'webhook-dispatcher']);
  });

  it('let only webhook-dispatcher out to the internet, on 80 and 443, never to private ranges', () => {
    expect(internetEgress.sort()).toEqual(['webhook-dispatcher:443', 'webhook-dispatcher:80']);
    const dispatcher = policies.find((p) => p.metadata.name === 'sika-webhook-dispatcher')!;
    const blocks = (dispatcher.spec.egress ?? [])
      .flatMap((rule) => rule.to ?? [])
      .flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
    const v4 = blocks.find((block) => block.cidr === '0.0.0.0/0');
    expect(v4?.except).toEqual(
      expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
    );
  });

  it('let each service reach only the infrastructure it uses', () => {
    const infraPorts = new Map<string, number[]>();
    for (const policy of policies) {
      const self = policy.spec.podSelector.matchLabels['app.kubernetes.io/name']!;
      const ports = (policy.spec.egress ?? [])
        .filter((rule) => rule.to === undefined)
        .flatMap((rule) => (rule.ports ?? []).map((port) => Number(port.port)));
      infraPorts.set(self, ports.sort());
    }
    expect(Object.fromEntries(infraPorts)).toEqual({
      'checkout-web': [6379],
      'dashboard-web': [5432, 6379],
      gateway: [6379],
      ledger: [5432, 5672],
      merchants: [5432],
      payments: [5432, 5672],
      payouts: [5432, 5672],
      'pispi-simulator': [5432],
      'psp-connector': [5432, 5672],
      'webhook-dispatcher': [5432, 5672],
    });
  });

  it('give every migration Job pod its own hook policy: DNS and Postgres out, nothing in', () => {
    const hooks = ofKind<NetworkPolicy>(manifests, 'NetworkPolicy').filter(isHook);
    const jobs = ofKind<Workload>(manifests, 'Job');
    expect(hooks.map((hook) => hook.metadata.name).sort()).toEqual(
      jobs.map((job) => job.metadata.name).sort(),
    );
    for (const hook of hooks) {
      expect(hook.spec.ingress ?? []).toEqual([]);
      const ports = (hook.spec.egress ?? []).flatMap((rule) =>
        (rule.ports ?? []).map((port) => Number(port.port)),
      );
      expect([...new Set(ports)].sort()).toEqual([53, 5432]);
    }
  });
});

describe('NetworkPolicies of the production-like release', () => {
  const { ingress, egress, openIngress, internetEgress } = analyse(renderUmbrella('production'));

  it('keep the same calls, without the simulator', () => {
    const withoutSimulator = ARCHITECTURE_EDGES.filter((edge) => !edge.includes('pispi-simulator'));
    const betweenServices = (edges: Set<string>) =>
      [...edges].filter((edge) => !edge.endsWith(':metrics')).sort();
    expect(betweenServices(ingress)).toEqual(withoutSimulator);
    expect(betweenServices(egress)).toEqual(withoutSimulator);
  });

  it('open nothing to any source once publicFrom and metricsFrom are set', () => {
    expect(openIngress).toEqual([]);
  });

  it('let out only to the configured networks: infrastructure, participants, and the internet for webhooks', () => {
    expect(internetEgress.sort()).toEqual([
      'checkout-web:6379:10.20.2.0/24',
      'dashboard-web:5432:10.20.0.0/24',
      'dashboard-web:6379:10.20.2.0/24',
      'gateway:6379:10.20.2.0/24',
      'ledger:5432:10.20.0.0/24',
      'ledger:5671:10.20.1.0/24',
      'merchants:5432:10.20.0.0/24',
      'payments:5432:10.20.0.0/24',
      'payments:5671:10.20.1.0/24',
      'payouts:5432:10.20.0.0/24',
      'payouts:5671:10.20.1.0/24',
      'psp-connector:443:203.0.113.0/24',
      'psp-connector:5432:10.20.0.0/24',
      'psp-connector:5671:10.20.1.0/24',
      'webhook-dispatcher:443',
      'webhook-dispatcher:5432:10.20.0.0/24',
      'webhook-dispatcher:5671:10.20.1.0/24',
      'webhook-dispatcher:80',
    ]);
  });
});
