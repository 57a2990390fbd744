import { setTimeout as sleep } from 'node:timers/promises';
import type { TransactionCounter } from './database';
import { cpuBetween, machineBusyMs, stackProcesses, type CpuRow } from './processes';

export interface CostFigures {
  cpu: CpuRow[];
  sikaCpuMs: number;
  totalCpuMs: number;
  /** Transactions of the stack's database over the same span. */
  transactions: number;
  /** Rows its whole-table scans read over the same span. */
  scannedRows: number;
  elapsedS: number;
  /** Every process of the machine: the stack shares it with whatever else runs. */
  machineBusyMs: number;
  /** This benchmark process's own, which the load generator and webhook receiver spend. */
  benchmarkCpuMs: number;
}

/**
 * Phases 5 and 6: the stack's CPU time and database transactions from the call to `stop()`, to be divided by
 * the payments paid in between. Background work the stack does anyway (pollers, relays) is in them too:
 * the same meter over an idle stretch tells how much.
 */
export async function startCostMeter(
  database: string,
  counter: TransactionCounter,
  ticksPerSecond: number,
): Promise<{ stop(): Promise<CostFigures> }> {
  const countsBefore = await counter.read();
  const before = stackProcesses(database);
  const machineBefore = machineBusyMs(ticksPerSecond);
  const benchmarkBefore = process.cpuUsage();
  const start = Date.now();
  return {
    async stop() {
      const cpu = cpuBetween(before, stackProcesses(database), ticksPerSecond);
      const machine = machineBusyMs(ticksPerSecond) - machineBefore;
      const benchmark = process.cpuUsage(benchmarkBefore);
      const elapsedS = (Date.now() - start) / 1_000;
      const counts = await counter.read({ afterFlush: true });
      const transactions = counts.transactions - countsBefore.transactions;
      const scannedRows = counts.scannedRows - countsBefore.scannedRows;
      const sum = (rows: CpuRow[]) => rows.reduce((total, row) => total + row.cpuMs, 0);
      return {
        cpu,
        sikaCpuMs: sum(cpu.filter(({ kind }) => kind === 'sika')),
        totalCpuMs: sum(cpu),
        transactions,
        scannedRows,
        elapsedS,
        machineBusyMs: machine,
        benchmarkCpuMs: (benchmark.user + benchmark.system) / 1_000,
      };
    },
  };
}

const QUIET_SAMPLE_MS = 1_000;

/**
 * Waits, at most `maxS` seconds, until the Sika services use less than `quietShare` of one core: work left
 * over from the previous phase (relays, deliveries) would otherwise be billed to the next one. Returns the
 * seconds waited and the services' CPU share in the last sample. Samples once a second: the benchmark
 * shares the cores it measures.
 */
export async function waitUntilQuiet(
  database: string,
  ticksPerSecond: number,
  { maxS, quietShare }: { maxS: number; quietShare: number },
): Promise<{ waitedS: number; lastShare: number }> {
  const start = Date.now();
  let lastShare = NaN;
  let before = stackProcesses(database);
  while (Date.now() - start < maxS * 1_000) {
    await sleep(QUIET_SAMPLE_MS);
    const after = stackProcesses(database);
    const sikaMs = cpuBetween(before, after, ticksPerSecond)
      .filter(({ kind }) => kind === 'sika')
      .reduce((total, row) => total + row.cpuMs, 0);
    lastShare = sikaMs / QUIET_SAMPLE_MS;
    if (lastShare < quietShare) break;
    before = after;
  }
  return { waitedS: (Date.now() - start) / 1_000, lastShare };
}
