import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The running stack seen from /proc: Sika's services (`node services/<name>/dist/main.js`) and the
 * infrastructure they share (Postgres, RabbitMQ, Redis), for CPU time, resident memory and environment.
 */
export interface StackProcess {
  pid: number;
  /** Start time in clock ticks since boot: with the pid, tells a process from a later one reusing its pid. */
  startTicks: number;
  /** The row it is counted under: the service's name, or an infrastructure row. */
  row: string;
  kind: 'sika' | 'infra';
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
}

const SIKA_SERVICE = /(?:^|\/)services\/([\w-]+)\/dist\/main\.js$/;
/**
 * A Postgres backend's title: `postgres: 15/main: <user> <database> <client> <state>`, the client being
 * `host(port)` over TCP or `[local]` over a Unix socket.
 */
const POSTGRES_BACKEND = /^postgres: [^:]+: \S+ (\S+) (?:\S+\(\d+\)|\[local\])/;

function readProc(pid: string, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    // The process ended between the listing and the read, or is not ours to read.
    return undefined;
  }
}

/** Which row a process belongs to, from its command line and name; undefined when it is not the stack's. */
function classify(
  cmdline: string[],
  comm: string,
  database: string,
): Pick<StackProcess, 'row' | 'kind'> | undefined {
  const service = cmdline.map((argument) => SIKA_SERVICE.exec(argument)?.[1]).find(Boolean);
  if (service) return { row: service, kind: 'sika' };
  if (comm === 'postgres') {
    const backendDatabase = POSTGRES_BACKEND.exec(cmdline.join(' '))?.[1];
    // Other databases' backends (other engineers' integration tests, say) are not the stack's work.
    return backendDatabase === database
      ? { row: `postgres backends (${database})`, kind: 'infra' }
      : { row: 'postgres (server, other databases)', kind: 'infra' };
  }
  if (comm === 'beam.smp') return { row: 'rabbitmq (beam.smp)', kind: 'infra' };
  if (comm === 'redis-server') return { row: 'redis-server', kind: 'infra' };
  return undefined;
}

/** A process's name, start time and CPU time from /proc/<pid>/stat; undefined once it is gone. */
export function procStat(
  pid: number | string,
): (Pick<StackProcess, 'startTicks' | 'cpuTicks'> & { comm: string }) | undefined {
  const stat = readProc(String(pid), 'stat');
  if (stat === undefined) return undefined;
  // `pid (comm) state ...`: comm may hold spaces and parentheses, so split after its last ')'.
  const closing = stat.lastIndexOf(')');
  // Fields from the 3rd (state) on: utime is the 14th, stime the 15th, starttime the 22nd (proc(5)).
  const fields = stat.slice(closing + 2).split(' ');
  return {
    comm: stat.slice(stat.indexOf('(') + 1, closing),
    startTicks: Number(fields[19]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
  };
}

/** The stack's processes as they are now; `database` names the stack's Postgres database. */
export function stackProcesses(database: string): StackProcess[] {
  const found: StackProcess[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = procStat(pid);
    const cmdline = readProc(pid, 'cmdline');
    if (stat === undefined || cmdline === undefined) continue;
    const placed = classify(cmdline.split('\0').filter(Boolean), stat.comm, database);
    if (!placed) continue;
    found.push({ pid: Number(pid), startTicks: stat.startTicks, cpuTicks: stat.cpuTicks, ...placed });
  }
  return found;
}

export function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

export interface CpuRow {
  row: string;
  kind: 'sika' | 'infra';
  processes: number;
  cpuMs: number;
}

/**
 * CPU time each row spent between two snapshots. A process started in between counts from zero; one that
 * ended in between is lost (its time went with it), which only Postgres backends closed by a pool risk.
 */
export function cpuBetween(
  before: readonly StackProcess[],
  after: readonly StackProcess[],
  ticksPerSecond: number,
): CpuRow[] {
  const earlier = new Map(
    before.map((earlierProcess) => [
      `${earlierProcess.pid}:${earlierProcess.startTicks}`,
      earlierProcess.cpuTicks,
    ]),
  );
  const rows = new Map<string, CpuRow>();
  for (const current of after) {
    const ticks = current.cpuTicks - (earlier.get(`${current.pid}:${current.startTicks}`) ?? 0);
    const row = rows.get(current.row) ?? { row: current.row, kind: current.kind, processes: 0, cpuMs: 0 };
    row.processes += 1;
    row.cpuMs += (ticks * 1_000) / ticksPerSecond;
    rows.set(current.row, row);
  }
  return [...rows.values()].sort((a, b) =>
    a.kind === b.kind ? a.row.localeCompare(b.row) : a.kind === 'sika' ? -1 : 1,
  );
}

/** Resident memory of each Sika service, in MiB (VmRSS; its largest process if it runs replicas). */
export function sikaResidentMiB(processes: readonly StackProcess[]): Record<string, number> {
  const resident: Record<string, number> = {};
  for (const service of processes.filter(({ kind }) => kind === 'sika')) {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readProc(String(service.pid), 'status') ?? '')?.[1];
    if (kilobytes !== undefined) {
      resident[service.row] = Math.max(resident[service.row] ?? 0, Number(kilobytes) / 1024);
    }
  }
  return resident;
}

/** The Node.js releases the Sika services run on (`v26.10.0`), from their executables. */
export function sikaNodeReleases(processes: readonly StackProcess[]): string[] {
  const executables = new Set<string>();
  for (const service of processes.filter(({ kind }) => kind === 'sika')) {
    try {
      executables.add(readlinkSync(`/proc/${service.pid}/exe`));
    } catch {
      // Ended since the listing, or not ours to read.
    }
  }
  return [
    ...new Set(
      [...executables].map((file) => execFileSync(file, ['--version'], { encoding: 'utf8' }).trim()),
    ),
  ];
}

/** A variable of a running service's environment, when it is set and readable. */
export function serviceEnv(
  processes: readonly StackProcess[],
  service: string,
  variable: string,
): string | undefined {
  const found = processes.find(({ row, kind }) => kind === 'sika' && row === service);
  const environ = found && readProc(String(found.pid), 'environ');
  const prefix = `${variable}=`;
  return environ
    ?.split('\0')
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
}

/** CPU time the whole machine spent busy (every core, every process, the kernel), from /proc/stat. */
export function machineBusyMs(ticksPerSecond: number): number {
  // `cpu  user nice system idle iowait irq softirq steal guest guest_nice`; guest time is already in user.
  const [user, nice, system, , , irq, softirq, steal] =
    readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const busy = [user, nice, system, irq, softirq, steal].reduce<number>(
    (sum, ticks) => sum + (ticks ?? 0),
    0,
  );
  return (busy * 1_000) / ticksPerSecond;
}
