/* eslint-disable no-console -- a benchmark: its output is the figures it prints. */
/**
 * What the tracing hooks cost while tracing is off (no OTEL_EXPORTER_OTLP_ENDPOINT: no SDK, the OpenTelemetry API
 * does nothing): `pnpm bench:tracing-off`. Prints ns per call of each hook a paid payment passes through (an
 * outbox row's headers, a publish or consume span, ids on the span), and an upper bound per paid payment from
 * a generous count of calls, to read beside the few milliseconds of CPU a paid payment costs. Not a test.
 */
import {
  inMessageSpan,
  tagSpan,
  traceHeaders,
  withContextFrom,
} from '../../packages/platform/src/trace-context';

const CALLS = 200_000;
const ROUNDS = 3;
/** More of each than a paid payment makes (it writes about six outbox rows and handles about five messages). */
const CALLS_PER_PAID = 20;

const headers = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

const hooks: Record<string, () => unknown> = {
  'traceHeaders (an outbox row)': () => traceHeaders(),
  'withContextFrom (a loop restoring a row)': () => withContextFrom(headers, () => 1),
  'tagSpan (ids on the span)': () =>
    tagSpan({ paymentId: 'pay_4eC39HqLyjWDarjtT1zdp7dc', attemptId: 'att_1' }),
  'inMessageSpan (a publish or a consume)': () =>
    inMessageSpan(
      { name: 'process payments.psp-updates', kind: 'consumer', parent: headers, attributes: {} },
      async () => 1,
    ),
};

async function nsPerCall(hook: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    for (let call = 0; call < CALLS; call += 1) await hook();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / CALLS);
  }
  return best;
}

async function main(): Promise<void> {
  console.log(`Tracing off: each hook ${CALLS.toLocaleString('en-US')} times, best of ${ROUNDS} rounds`);
  let perPaidNs = 0;
  for (const [name, hook] of Object.entries(hooks)) {
    const ns = await nsPerCall(hook);
    perPaidNs += ns * CALLS_PER_PAID;
    console.log(`  ${name.padEnd(44)} ${ns.toFixed(0).padStart(6)} ns`);
  }
  console.log(
    `Upper bound per paid payment (${CALLS_PER_PAID} calls of each): ${(perPaidNs / 1_000).toFixed(1)} µs`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
