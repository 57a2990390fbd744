import { join } from 'node:path';
import { infraFromEnv } from '../../../scripts/stack/infra';
import { loadLocalSecrets } from '../../../scripts/stack/local-secrets';
import { RecentLines } from '../../../scripts/stack/output';
import { waitUntilReady } from '../../../scripts/stack/readiness';
import { ServiceProcess } from '../../../scripts/stack/service-process';
import { services, type ServiceSpec } from '../../../scripts/stack/services';
import { REPOSITORY_ROOT } from '../../support/environment';

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;

/**
 * The local stack's processes (the same table, environment and ports as `scripts/start.sh`), each one killed
 * and started again at will, as Kubernetes restarts a container that died. Output is kept, not printed.
 */
export class SupervisedStack {
  private readonly running = new Map<string, ServiceProcess>();
  private readonly specs: Map<string, ServiceSpec>;
  /** The last lines the processes wrote, across restarts: what the test shows when it fails. */
  readonly output = new RecentLines(400);

  constructor(env: Readonly<Record<string, string>>) {
    const infra = infraFromEnv(
      { ...process.env, ...env },
      join(REPOSITORY_ROOT, 'services'),
      loadLocalSecrets(join(REPOSITORY_ROOT, '.sika')),
    );
    this.specs = new Map(services(infra).map((spec) => [spec.name, spec]));
  }

  get names(): string[] {
    return [...this.specs.keys()];
  }

  async start(): Promise<void> {
    await Promise.all(this.names.map((name) => this.startOne(name)));
  }

  /** SIGKILL: no graceful shutdown, no flushing, as when a node dies or the OOM killer strikes. */
  async kill(name: string): Promise<void> {
    const service = this.running.get(name);
    if (!service) return;
    service.signal('SIGKILL');
    await service.exited;
    this.running.delete(name);
  }

  async startOne(name: string): Promise<void> {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`no service ${name} in scripts/stack/services.ts`);
    const service = new ServiceProcess(spec, REPOSITORY_ROOT, (line) => this.output.push(`${name}: ${line}`));
    this.running.set(name, service);
    const ready = await Promise.race([
      waitUntilReady(spec.readyUrl, AbortSignal.timeout(READY_TIMEOUT_MS)),
      service.exited.then(() => false),
    ]);
    if (!ready) {
      throw new Error(`${name} was not ready after a restart:\n${service.recent.all().join('\n')}`);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.values()].map((service) => service.stop(STOP_GRACE_MS)));
    this.running.clear();
  }
}
