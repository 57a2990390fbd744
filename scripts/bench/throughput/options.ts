import { parseArgs } from 'node:util';

export const USAGE = `pnpm bench:throughput [options]     (needs the local stack: bash scripts/start.sh)

  --duration S       seconds of load of the ceiling, POST and fixed-rate phases (default 10)
  --paid-duration S  seconds of load of the paid-payments phase (default 15)
  --connections N    connections of the ceiling and POST phases (default 32)
  --concurrency N    payments in flight in the paid-payments phase (default 400)
  --rate R           creations per second of the fixed-rate phase (default 100)
  --drain S          longest wait for outstanding webhooks once a phase's load stops (default 60)
  --merchants N      merchants (secret keys) the load is spread over (default 1; each key has its own rate limit)
  --skip-ceiling --skip-post --skip-paid --skip-latency
                     leave a phase out (CPU, transactions per payment come with the paid-payments phase)
  --skip-autovacuum  when Postgres runs without autovacuum, do not stand in for it (see throughput/autovacuum.ts)
  --json             also write the figures to .sika/bench/throughput-<date>.json (or --out FILE)
`;

export interface BenchOptions {
  durationS: number;
  paidDurationS: number;
  connections: number;
  concurrency: number;
  rate: number;
  drainS: number;
  merchants: number;
  skipCeiling: boolean;
  skipPost: boolean;
  skipPaid: boolean;
  skipLatency: boolean;
  skipAutovacuum: boolean;
  /** Where to write the JSON figures, when asked for. */
  jsonFile: string | undefined;
}

function positive(name: string, text: string, integer: boolean): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(
      `--${name} expects a positive ${integer ? 'integer' : 'number'}, not ${text}\n\n${USAGE}`,
    );
  }
  return value;
}

/** The command line, or undefined when it asked for the usage. */
export function parseOptions(args: string[], now: Date): BenchOptions | undefined {
  const { values } = parseArgs({
    args,
    options: {
      duration: { type: 'string', default: '10' },
      'paid-duration': { type: 'string', default: '15' },
      connections: { type: 'string', default: '32' },
      concurrency: { type: 'string', default: '400' },
      rate: { type: 'string', default: '100' },
      drain: { type: 'string', default: '60' },
      merchants: { type: 'string', default: '1' },
      'skip-ceiling': { type: 'boolean', default: false },
      'skip-post': { type: 'boolean', default: false },
      'skip-paid': { type: 'boolean', default: false },
      'skip-latency': { type: 'boolean', default: false },
      'skip-autovacuum': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return undefined;
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return {
    durationS: positive('duration', values.duration, false),
    paidDurationS: positive('paid-duration', values['paid-duration'], false),
    connections: positive('connections', values.connections, true),
    concurrency: positive('concurrency', values.concurrency, true),
    rate: positive('rate', values.rate, false),
    drainS: positive('drain', values.drain, false),
    merchants: positive('merchants', values.merchants, true),
    skipCeiling: values['skip-ceiling'],
    skipPost: values['skip-post'],
    skipPaid: values['skip-paid'],
    skipLatency: values['skip-latency'],
    skipAutovacuum: values['skip-autovacuum'],
    jsonFile: values.out ?? (values.json ? `.sika/bench/throughput-${stamp}.json` : undefined),
  };
}
