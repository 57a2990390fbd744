import { createOutput } from './output';
import { waitUntilReady } from './readiness';
import { describeExit, ServiceProcess } from './service-process';
import type { Exit } from './service-process';
import type { ServiceSpec } from './services';

export interface StackOptions {
  services: readonly ServiceSpec[];
  /** Where the service commands run: the repository root. */
  cwd: string;
  readyTimeoutMs: number;
  /** How long a service may take to exit after SIGTERM before it gets SIGKILL. */
  stopGraceMs: number;
  stream: NodeJS.WritableStream;
  colour: boolean;
}

const RUNNER = 'stack';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Outcome =
  | { kind: 'ready' }
  | { kind: 'not ready'; names: string[] }
  | { kind: 'died'; service: ServiceProcess; exit: Exit }
  | { kind: 'stop requested'; signal: NodeJS.Signals };

/**
 * Starts every service, waits until each answers its readiness URL, prints the URLs, and runs until a
 * signal (exit code 0 once all have stopped) or until a service dies (all stopped, exit code 1).
 */
export async function runStack(options: StackOptions): Promise<number> {
  const { services, stream, colour } = options;
  const output = createOutput(
    stream,
    services.map((spec) => spec.name),
    RUNNER,
    colour,
  );
  const say = output.writer(RUNNER);
  if (services.length === 0) {
    say('no services in scripts/stack/services.ts yet: nothing to start');
    return 0;
  }

  let requestStop: (signal: NodeJS.Signals) => void = () => undefined;
  const stopRequested = new Promise<Outcome>((resolve) => {
    requestStop = (signal) => resolve({ kind: 'stop requested', signal });
  });
  let stopping = false;
  const running: ServiceProcess[] = [];
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`${signal} again: killing everything now`);
      for (const service of running) service.signal('SIGKILL');
      return;
    }
    requestStop(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

  try {
    const startedAt = Date.now();
    for (const spec of services)
      running.push(new ServiceProcess(spec, options.cwd, output.writer(spec.name)));
    const firstDeath = Promise.race(
      running.map((service) => service.exited.then((exit): Outcome => ({ kind: 'died', service, exit }))),
    );

    const readiness = new AbortController();
    const outcome = await Promise.race([
      allReady(running, options.readyTimeoutMs, readiness.signal),
      firstDeath,
      stopRequested,
    ]);
    readiness.abort();

    let final = outcome;
    if (outcome.kind === 'ready') {
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      say(`all ${running.length} services ready in ${seconds}s`);
      for (const spec of services) {
        for (const [label, url] of Object.entries(spec.urls)) say(`  ${spec.name} ${label}: ${url}`);
      }
      say('Ctrl-C stops them all');
      final = await Promise.race([firstDeath, stopRequested]);
    }

    stopping = true;
    reportFailure(final, running, say, options.readyTimeoutMs);
    await stopAll(running, options.stopGraceMs, say);
    return final.kind === 'stop requested' ? 0 : 1;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}

async function allReady(running: ServiceProcess[], timeoutMs: number, stop: AbortSignal): Promise<Outcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const giveUp = AbortSignal.any([stop, timeout]);
  const ready = new Set<ServiceProcess>();
  await Promise.all(
    running.map(async (service) => {
      if (await waitUntilReady(service.spec.readyUrl, giveUp)) ready.add(service);
    }),
  );
  if (ready.size === running.length) return { kind: 'ready' };
  return {
    kind: 'not ready',
    names: running.filter((service) => !ready.has(service)).map((s) => s.spec.name),
  };
}

function reportFailure(
  outcome: Outcome,
  running: ServiceProcess[],
  say: (line: string) => void,
  readyTimeoutMs: number,
): void {
  const showRecent = (service: ServiceProcess) => {
    if (service.recent.all().length === 0) return;
    say(`last lines of ${service.spec.name}:`);
    for (const line of service.recent.all()) say(`  ${line}`);
  };
  switch (outcome.kind) {
    case 'stop requested':
      say(`${outcome.signal}: stopping all services`);
      return;
    case 'died':
      say(
        `${outcome.service.spec.name} stopped unexpectedly (${describeExit(outcome.exit)}): stopping all services`,
      );
      showRecent(outcome.service);
      return;
    case 'not ready': {
      say(`not ready after ${readyTimeoutMs / 1000}s: ${outcome.names.join(', ')}; stopping all services`);
      const late = running.filter((service) => outcome.names.includes(service.spec.name));
      for (const service of late) {
        say(`${service.spec.name}: ${service.spec.readyUrl} did not answer 200`);
        showRecent(service);
      }
      return;
    }
    case 'ready':
      return;
  }
}

async function stopAll(
  running: ServiceProcess[],
  graceMs: number,
  say: (line: string) => void,
): Promise<void> {
  await Promise.all(
    running.map(async (service) => {
      const alreadyExited = service.hasExited;
      const { exit, killed } = await service.stop(graceMs);
      const how = alreadyExited ? 'had exited' : killed ? `killed after ${graceMs / 1000}s` : 'stopped';
      say(`${service.spec.name} ${how} (${describeExit(exit)})`);
    }),
  );
}
