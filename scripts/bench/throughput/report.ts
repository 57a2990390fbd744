import type { AutovacuumCounts } from './autovacuum';
import type { CostFigures } from './costs';
import type { CpuRow } from './processes';
import type { FixedRateFigures } from './fixed-rate';
import type { LoadFigures } from './load';
import type { PaidFigures } from './paid-payments';
import type { PaidWebhookReceiver } from './receiver';
import { StatusTally } from './stats';

export interface Figures {
  date: string;
  machine: {
    cpuModel: string;
    cpus: number;
    memoryGiB: number;
    /** This benchmark's. */
    node: string;
    /** The services'. */
    servicesNode: string[];
    loadAverage: number[];
  };
  stack: {
    payerDelayMs: number;
    payerDelaySource: string;
    rateLimit: string;
    merchants: number;
    /** Services found running as more than one process: replicas, or a second stack on the machine. */
    severalProcesses: string[];
    /** Postgres's `autovacuum` setting: off, queue tables keep their dead rows and their scans slow down. */
    autovacuum: string;
    /** What the benchmark did in autovacuum's place, when the server runs without it (throughput/autovacuum.ts). */
    autovacuumStandIn?: AutovacuumCounts & { naptimeMs: number };
  };
  ceiling?: LoadFigures & { connections: number; durationS: number };
  post?: LoadFigures & { connections: number; durationS: number; shareOfCeiling: number };
  paid?: PaidFigures & { durationS: number };
  /** The stack's cost over phase 3, and over an idle stretch just before it. */
  costs?: { load: CostFigures; idle: CostFigures };
  fixedRate?: FixedRateFigures & {
    durationS: number;
    p99BeyondPayerDelayMs: number;
    /** The stack's cost over phase 4 with its drain: the latency target is met or missed at this load. */
    costs: CostFigures;
  };
  residentMiB: Record<string, number>;
  webhooks: PaidWebhookReceiver['counts'];
  targets: TargetLine[];
}

export interface TargetLine {
  target: string;
  figure: string;
  /** undefined when the phase that measures it was skipped. */
  pass: boolean | undefined;
}

const decimal = (value: number, digits = 0): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';
const ms = (value: number): string => `${decimal(value)} ms`;

/** Statuses of every creation the benchmark sent to the stack. */
function allCreations(figures: Omit<Figures, 'targets'>): StatusTally {
  const all = new StatusTally();
  for (const tally of [figures.post?.statuses, figures.paid?.statuses, figures.fixedRate?.statuses]) {
    if (tally) all.add(tally.counts, tally.throttledWithoutRetryAfter);
  }
  return all;
}

export function targetLines(figures: Omit<Figures, 'targets'>): TargetLine[] {
  const { post, paid, costs, fixedRate } = figures;
  const creations = allCreations(figures);
  const unexpected = Object.entries(creations.unexpected);
  const residents = Object.entries(figures.residentMiB).sort(([, a], [, b]) => b - a);
  const [largest, largestMiB] = residents[0] ?? ['n/a', NaN];
  const anyLoad = post ?? paid ?? fixedRate;
  return [
    {
      target: 'paid payments ≥ 250/s',
      figure: paid ? `${decimal(paid.paidPerSecond, 1)}/s` : 'skipped',
      pass: paid && paid.paidPerSecond >= 250,
    },
    {
      target: 'POST /v1/payments ≥ 3000 req/s',
      figure: post
        ? `${decimal(post.requestsPerSecond)} req/s (${decimal(post.succeededPerSecond)} 2xx/s)`
        : 'skipped',
      pass: post && post.requestsPerSecond >= 3_000,
    },
    {
      target: 'POST /v1/payments p99 ≤ 50 ms',
      figure: post ? ms(post.p99Ms) : 'skipped',
      pass: post && post.p99Ms <= 50,
    },
    {
      target: `fixed rate: p99 beyond payer delay ≤ 150 ms at 100/s`,
      figure: fixedRate
        ? `${ms(fixedRate.p99BeyondPayerDelayMs)}${fixedRate.rate === 100 ? '' : ` (at ${decimal(fixedRate.rate)}/s)`}`
        : 'skipped',
      pass: fixedRate && fixedRate.p99BeyondPayerDelayMs <= 150 && fixedRate.missing === 0,
    },
    {
      target: 'no 500s: only 2xx, 429, 503',
      figure: anyLoad
        ? unexpected.length === 0
          ? `${decimal(creations.total)} responses`
          : unexpected.map(([status, count]) => `${status}×${count}`).join(' ')
        : 'skipped',
      pass: anyLoad && unexpected.length === 0,
    },
    {
      target: '429/503 carry Retry-After',
      figure: anyLoad ? `${creations.throttledWithoutRetryAfter} without` : 'skipped',
      pass: anyLoad && creations.throttledWithoutRetryAfter === 0,
    },
    {
      target: 'every paid payment gets its signed webhook',
      figure:
        paid || fixedRate
          ? `${(paid?.missing ?? 0) + (fixedRate?.missing ?? 0)} missing, ${figures.webhooks.badSignatures} bad signatures`
          : 'skipped',
      pass:
        paid || fixedRate
          ? (paid?.missing ?? 0) + (fixedRate?.missing ?? 0) === 0 && figures.webhooks.badSignatures === 0
          : undefined,
    },
    {
      target: 'CPU ≤ 8 ms per paid payment (Sika total)',
      figure: costs && paid ? `${decimal(costs.load.sikaCpuMs / paid.paid, 1)} ms` : 'skipped',
      pass: costs && paid && costs.load.sikaCpuMs / paid.paid <= 8,
    },
    {
      target: 'RSS ≤ 150 MiB per service',
      figure: `max ${decimal(largestMiB)} MiB (${largest})`,
      pass: largestMiB <= 150,
    },
  ];
}

const pad = (text: string, width: number): string => text.padEnd(width);
const padLeft = (text: string, width: number): string => text.padStart(width);

function loadLines(figures: LoadFigures): string[] {
  return [
    `   ${decimal(figures.requestsPerSecond)} req/s   p50 ${ms(figures.p50Ms)}   p99 ${ms(figures.p99Ms)}`,
    `   statuses: ${figures.statuses.format()}`,
  ];
}

/**
 * The CPU table of a span, per process group, with each group's milliseconds per paid payment and, when an
 * idle stretch was measured, its milliseconds per second at rest; then what the benchmark and the rest of
 * the machine used.
 */
function cpuLines(load: CostFigures, paid: number, cpus: number, idle?: CostFigures): string[] {
  const { benchmarkCpuMs } = load;
  const idleRows = new Map(idle?.cpu.map((row) => [row.row, row.cpuMs / idle.elapsedS]));
  const perPaid = (cpuMs: number) => padLeft(decimal(cpuMs / paid, 2), 9);
  const line = (name: string, processes: string, cpuMs: number, idleMsPerS: number | undefined) =>
    `   ${pad(name, 36)}${padLeft(processes, 5)}${padLeft(decimal(cpuMs), 10)}${perPaid(cpuMs)}${padLeft(
      idleMsPerS === undefined ? '' : decimal(idleMsPerS),
      12,
    )}`;
  const rows = (kind: CpuRow['kind']) =>
    load.cpu
      .filter((row) => row.kind === kind)
      .map((row) => line(row.row, String(row.processes), row.cpuMs, idleRows.get(row.row)));
  return [
    `   ${pad('process', 36)}${padLeft('procs', 5)}${padLeft('CPU ms', 10)}${padLeft('ms/paid', 9)}${padLeft(idle ? 'idle ms/s' : '', 12)}`,
    ...rows('sika'),
    line('Sika services, total', '', load.sikaCpuMs, idle && idle.sikaCpuMs / idle.elapsedS),
    ...rows('infra'),
    line('grand total', '', load.totalCpuMs, idle && idle.totalCpuMs / idle.elapsedS),
    `   this benchmark process itself: ${decimal(benchmarkCpuMs)} ms (${decimal(benchmarkCpuMs / paid, 2)} ms/paid)`,
    `   the machine was ${decimal((load.machineBusyMs / (load.elapsedS * 1_000 * cpus)) * 100)}% busy; everything ` +
      `else on it (other processes, the kernel's share of loopback traffic) used ${decimal(load.machineBusyMs - load.totalCpuMs - benchmarkCpuMs)} ms of it`,
  ];
}

function costLines({ load, idle }: NonNullable<Figures['costs']>, paid: PaidFigures, cpus: number): string[] {
  const idleShare = (cpuMs: number) => decimal(((cpuMs / idle.elapsedS) * load.elapsedS) / paid.paid, 2);
  return [
    `5. CPU per paid payment: ${decimal(paid.paid)} paid over ${decimal(load.elapsedS, 1)} s (phase 3 with its drain)`,
    ...cpuLines(load, paid.paid, cpus, idle),
    `   idle background (measured over ${decimal(idle.elapsedS, 1)} s before the load) accounts for ` +
      `${idleShare(idle.sikaCpuMs)} ms/paid of the Sika total, ${idleShare(idle.totalCpuMs)} of the grand total`,
    `6. Database transactions per paid payment: ${decimal(load.transactions / paid.paid, 1)} ` +
      `(${decimal(load.transactions)} transactions; idle ${decimal(idle.transactions / idle.elapsedS, 1)}/s, ` +
      `${decimal(((idle.transactions / idle.elapsedS) * load.elapsedS) / paid.paid, 1)} per paid of it); ` +
      `rows read by whole-table scans per paid payment: ${decimal(load.scannedRows / paid.paid, 1)}`,
  ];
}

function autovacuumLines({ autovacuum, autovacuumStandIn: standIn }: Figures['stack']): string[] {
  if (autovacuum === 'on') return [];
  if (standIn === undefined) {
    return [
      `Postgres autovacuum is ${autovacuum} and --skip-autovacuum was given: queue tables (outboxes, deliveries) ` +
        'keep their dead rows and the planner the statistics of their last ANALYZE, so statements slow down run ' +
        'after run (start from a fresh database, or VACUUM ANALYZE it).',
    ];
  }
  return [
    `Postgres autovacuum is ${autovacuum}: the benchmark stood in for it, at start and every ${decimal(standIn.naptimeMs / 1_000)} s ` +
      `by its thresholds (${standIn.rounds} rounds: ${standIn.analyzed} tables analyzed, ${standIn.vacuumed} of them ` +
      `vacuumed${standIn.failed > 0 ? `; ${standIn.failed} rounds failed` : ''}).`,
  ];
}

/** The block of figures, as printed. */
export function formatFigures(figures: Figures): string {
  const { machine, stack, ceiling, post, paid, costs, fixedRate } = figures;
  const lines = [
    `Sika throughput benchmark, ${figures.date}`,
    `Machine: ${machine.cpuModel} × ${machine.cpus}, ${decimal(machine.memoryGiB, 1)} GiB, ` +
      `services on Node ${machine.servicesNode.join(' and ')} (this benchmark on ${machine.node}), ` +
      `load average ${machine.loadAverage.map((load) => decimal(load, 1)).join(' ')} at the start`,
    `Stack: payer delay ${ms(stack.payerDelayMs)} (${stack.payerDelaySource}), gateway rate limit ${stack.rateLimit} per key, ` +
      `${stack.merchants} merchant key(s)`,
    'The load generator and this benchmark run on the same cores as the stack.',
    ...autovacuumLines(stack),
    ...(stack.severalProcesses.length > 0
      ? [
          `Several processes found for: ${stack.severalProcesses.join(', ')} (replicas, or another stack running)`,
        ]
      : []),
    '',
  ];
  lines.push(
    ceiling
      ? `1. Ceiling: Node.js http hello-world, ${ceiling.connections} connections, ${decimal(ceiling.durationS)} s`
      : '1. Ceiling: skipped',
  );
  if (ceiling) lines.push(...loadLines(ceiling));
  lines.push(
    post
      ? `2. POST /v1/payments without customer_alias, ${post.connections} connections, ${decimal(post.durationS)} s`
      : '2. POST /v1/payments: skipped',
  );
  if (post) {
    lines.push(...loadLines(post));
    lines.push(
      `   ${decimal(post.succeededPerSecond)} created/s; ` +
        (Number.isFinite(post.shareOfCeiling)
          ? `${decimal(post.shareOfCeiling * 100, 1)}% of the ceiling's req/s; `
          : '') +
        `429/503 without Retry-After: ${post.statuses.throttledWithoutRetryAfter}`,
    );
  }
  if (paid) {
    lines.push(
      `3. Paid payments, ${paid.concurrency} in flight, ${decimal(paid.durationS)} s of load, then ${decimal(paid.drainS, 1)} s of drain`,
      `   ${decimal(paid.paidPerSecond, 1)} paid/s (${decimal(paid.paidInWindow)} signed payment.succeeded from first to last arrival, ` +
        `${decimal(paid.windowS, 1)} s)`,
      `   created ${decimal(paid.created)}, paid ${decimal(paid.paid)} (${decimal(paid.paidPerSecondOverall, 1)}/s from the ` +
        `phase's first to last arrival, drain included), missing webhooks ${decimal(paid.missing)}`,
      `   creations: ${paid.statuses.format()}; 429/503 without Retry-After: ${paid.statuses.throttledWithoutRetryAfter}`,
    );
  } else {
    lines.push('3. Paid payments: skipped (and with it 5 and 6)');
  }
  if (fixedRate) {
    lines.push(
      `4. Fixed rate ${decimal(fixedRate.rate)}/s for ${decimal(fixedRate.durationS)} s, open loop ` +
        `(offered ${decimal(fixedRate.offeredPerSecond, 1)}/s): scheduled create start → payment.succeeded webhook`,
      `   p50 ${ms(fixedRate.p50Ms)}   p99 ${ms(fixedRate.p99Ms)}   p99 beyond the payer delay ${ms(fixedRate.p99BeyondPayerDelayMs)}`,
      `   scheduled ${decimal(fixedRate.scheduled)}, paid ${decimal(fixedRate.paid)}, missing webhooks ${decimal(fixedRate.missing)}`,
      `   creations: ${fixedRate.statuses.format()}; 429/503 without Retry-After: ${fixedRate.statuses.throttledWithoutRetryAfter}`,
      `   CPU per paid payment at this rate, over ${decimal(fixedRate.costs.elapsedS, 1)} s (the load with its drain); ` +
        `database transactions per paid payment: ${decimal(fixedRate.costs.transactions / fixedRate.paid, 1)}`,
      ...cpuLines(fixedRate.costs, fixedRate.paid, machine.cpus),
    );
  } else {
    lines.push('4. Fixed rate: skipped');
  }
  if (costs && paid) lines.push(...costLines(costs, paid, machine.cpus));
  const residents = Object.entries(figures.residentMiB).sort(([a], [b]) => a.localeCompare(b));
  const max = Math.max(...residents.map(([, mib]) => mib));
  lines.push(
    `7. Resident memory after the load (VmRSS, MiB): max ${decimal(max)}`,
    `   ${residents.map(([service, mib]) => `${service} ${decimal(mib)}`).join(', ')}`,
    `   webhooks received: ${figures.webhooks.paid} signed payment.succeeded, ${figures.webhooks.duplicates} duplicates, ` +
      `${figures.webhooks.badSignatures} bad signatures, ${figures.webhooks.otherEvents} other events`,
    '8. Targets',
  );
  const width = Math.max(...figures.targets.map(({ target }) => target.length)) + 2;
  const figureWidth = Math.max(...figures.targets.map(({ figure }) => figure.length)) + 2;
  for (const { target, figure, pass } of figures.targets) {
    lines.push(
      `   ${pad(target, width)}${pad(figure, figureWidth)}${pass === undefined ? '-' : pass ? 'PASS' : 'FAIL'}`,
    );
  }
  return lines.join('\n');
}
