import { join } from 'node:path';
import { isLogMessage } from '@sika/testing';
import { provisionBrokerUsers } from '../../../scripts/stack/broker-users';
import { infraFromEnv, localBroker } from '../../../scripts/stack/infra';
import { loadLocalSecrets, type LocalSecrets } from '../../../scripts/stack/local-secrets';
import { RecentLines } from '../../../scripts/stack/output';
import { waitUntilReady } from '../../../scripts/stack/readiness';
import { ServiceProcess } from '../../../scripts/stack/service-process';
import { PORTS, services, type ServiceName, type ServiceSpec } from '../../../scripts/stack/services';
import { REPOSITORY_ROOT } from '../../support/environment';
import {
  assertBuilt,
  assertPortsFree,
  purgeStackQueues,
  recreateDatabase,
} from '../../support/stack-preparation';

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;
/** A second replica listens on its service's ports plus this (GRPC_PORT, HTTP_PORT and METRICS_PORT). */
const REPLICA_PORT_OFFSET = 1_000;
const PORT_VARIABLES = ['GRPC_PORT', 'HTTP_PORT', 'METRICS_PORT'];

/** The name of a service's second process, in the output and for kill() and startOne(). */
export const replicaOf = (name: string): string => `${name}#2`;

/**
 * The local stack's processes (the same table, environment and ports as `scripts/start.sh`) on a database
 * of its own, each one killed and started again at will, as Kubernetes restarts a container that died, and
 * a second replica of any service beside the first. Output is kept, not printed.
 */
export class SupervisedStack {
  private readonly running = new Map<string, ServiceProcess>();
  /** Every process's spec by its name: the services' own, and their replicas once started. */
  private readonly specs: Map<string, ServiceSpec>;
  private readonly primaries: readonly string[];
  /** Every line each process wrote, across its restarts. */
  private readonly lines = new Map<string, string[]>();
  /** The last lines the processes wrote, across restarts: what the test shows when it fails. */
  readonly output = new RecentLines(400);

  private readonly secrets: LocalSecrets = loadLocalSecrets(join(REPOSITORY_ROOT, '.sika'));

  constructor(private readonly env: Readonly<Record<string, string>> & { SIKA_DB_NAME: string }) {
    const infra = infraFromEnv({ ...process.env, ...env }, join(REPOSITORY_ROOT, 'services'), this.secrets);
    this.specs = new Map(services(infra).map((spec) => [spec.name, spec]));
    this.primaries = [...this.specs.keys()];
  }

  /**
   * Checks the services are built and the ports free, recreates the database, empties the queues, provisions
   * the broker users, starts every service. The faults project runs in band (scripts/run-tests.mjs): one supervised stack at a
   * time on the ports.
   */
  async start(): Promise<void> {
    assertBuilt();
    await assertPortsFree();
    await recreateDatabase(this.env);
    await purgeStackQueues();
    // As the start command does: the broker users' passwords are this checkout's, whoever set them last.
    await provisionBrokerUsers({
      ...localBroker({ ...process.env, ...this.env }, this.secrets),
      managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
      log: () => undefined,
    });
    await Promise.all(this.primaries.map((name) => this.startOne(name)));
  }

  /**
   * A second process of each of `names`: the same spec (database, broker user, queues) on its own ports. Its
   * gRPC clients call the second replicas of the services that have one, as each replica of a caller keeps
   * its HTTP/2 connection to one pod of the callee behind a Kubernetes Service: without that, a replica that
   * only serves gRPC (the ledger) would never be called. Callbacks still come to the first psp-connector's
   * port, its public URL.
   */
  async startReplicas(names: readonly ServiceName[]): Promise<void> {
    const shifted = new Map(
      names.flatMap((name) => {
        const grpc = PORTS[name].grpc;
        return grpc === undefined ? [] : [[`127.0.0.1:${grpc}`, `127.0.0.1:${grpc + REPLICA_PORT_OFFSET}`]];
      }),
    );
    for (const name of names) this.specs.set(replicaOf(name), replicaSpec(this.spec(name), shifted));
    await Promise.all(names.map((name) => this.startOne(replicaOf(name))));
  }

  /** SIGKILL: no graceful shutdown, no flushing, as when a node dies or the OOM killer strikes. */
  async kill(name: string): Promise<void> {
    const service = this.running.get(name);
    if (!service) return;
    service.signal('SIGKILL');
    await service.exited;
    this.running.delete(name);
  }

  /**
   * SIGSTOP for `ms`, then SIGCONT: the process neither dies nor answers, as in a long GC pause or a frozen VM,
   * and finishes what it had begun once it runs again, after its callers' deadlines.
   */
  async stall(name: string, ms: number): Promise<void> {
    const service = this.running.get(name);
    if (!service) return;
    service.signal('SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      service.signal('SIGCONT');
    }
  }

  async startOne(name: string): Promise<void> {
    // The stack's own settings (its database, any service setting a test gives) reach every service.
    const spec = { ...this.spec(name), env: { ...this.spec(name).env, ...this.env } };
    const service = new ServiceProcess(spec, REPOSITORY_ROOT, (line) => this.record(name, line));
    this.running.set(name, service);
    const ready = await Promise.race([
      waitUntilReady(spec.readyUrl, AbortSignal.timeout(READY_TIMEOUT_MS)),
      service.exited.then(() => false),
    ]);
    if (!ready) {
      throw new Error(`${name} was not ready after a restart:\n${service.recent.all().join('\n')}`);
    }
  }

  /** Where a process serves its Prometheus metrics: beside /readyz. */
  metricsUrl(name: string): string {
    return new URL('/metrics', this.spec(name).readyUrl).href;
  }

  /** How many JSON log lines with this `msg` a process wrote, across its restarts. */
  logged(name: string, msg: string): number {
    return this.loggedLines(name, msg).length;
  }

  /** The JSON log lines with this `msg` a process wrote, across its restarts. */
  loggedLines(name: string, msg: string): string[] {
    return (this.lines.get(name) ?? []).filter(isLogMessage(msg));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.values()].map((service) => service.stop(STOP_GRACE_MS)));
    this.running.clear();
  }

  private spec(name: string): ServiceSpec {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`no process ${name}: not in scripts/stack/services.ts, or no replica started`);
    return spec;
  }

  private record(name: string, line: string): void {
    this.output.push(`${name}: ${line}`);
    const lines = this.lines.get(name) ?? [];
    this.lines.set(name, lines);
    lines.push(line);
  }
}

/** The spec of a second replica: its own ports, and `shifted` gRPC addresses (first → second replica). */
function replicaSpec(spec: ServiceSpec, shifted: ReadonlyMap<string, string>): ServiceSpec {
  const env = Object.fromEntries(
    Object.entries(spec.env).map(([key, value]) => [
      key,
      PORT_VARIABLES.includes(key)
        ? String(Number(value) + REPLICA_PORT_OFFSET)
        : (shifted.get(value) ?? value),
    ]),
  );
  const readyUrl = new URL(spec.readyUrl);
  readyUrl.port = String(Number(readyUrl.port) + REPLICA_PORT_OFFSET);
  return { ...spec, name: replicaOf(spec.name), env, readyUrl: readyUrl.href, urls: {} };
}
