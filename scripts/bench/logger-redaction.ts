/**
 * What redaction costs per log line: `node --import tsx scripts/bench/logger-redaction.ts`. Prints
 * ns per line for plain pino and for createLogger, on the lines Sika writes most (an access log line, a use
 * case's line with ids, an error) and on a scheme payload logged whole. Not a test: timings vary by machine.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';

import { createLogger, type Logger } from '../../packages/platform/src/logger';

/** pino as @sika/platform has it (it is that package's dependency, not the root's). */
const pino = createRequire(require.resolve('../../packages/platform/package.json'))('pino') as {
  (options: object, stream: Writable): Logger;
  stdTimeFunctions: { isoTime: () => string };
};

const LINES = 100_000;
const ROUNDS = 3;

const sink = new Writable({ write: (_chunk, _encoding, done) => done() });

const samples: Record<string, [object, string]> = {
  'access log': [
    {
      request_id: 'req_4eC39HqLyjWDarjtT1zdp7dc',
      method: 'POST',
      route: '/v1/payments',
      status: 201,
      duration_ms: 12,
    },
    'http request',
  ],
  'use case': [
    { payment_id: 'pay_4eC39HqLyjWDarjtT1zdp7dc', attempt_id: 'att_1', tx_id: 'SIKA1', count: 1 },
    'sent',
  ],
  error: [{ err: new Error('connect ECONNREFUSED 127.0.0.1:5432'), attempt_id: 'att_1' }, 'send failed'],
  'scheme payload': [
    {
      body: {
        txId: 'SIKA1',
        montant: 10000,
        payeur: { alias: '+2250700000001', nom: 'Kone', pays: 'CI' },
        paye: { alias: '+2250000000100', nom: 'Sika' },
        events: [{ evCode: 'RTP_PAYE', evDate: '2026-01-01T00:00:00Z' }],
      },
    },
    'callback',
  ],
};

function nsPerLine(logger: Logger, [object, message]: [object, string]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let line = 0; line < LINES; line++) logger.info(object, message);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / LINES);
  }
  return best;
}

const plain = pino({ base: { service: 'bench' }, timestamp: pino.stdTimeFunctions.isoTime }, sink);
const sika = createLogger({ service: 'bench', destination: sink });

for (const [name, sample] of Object.entries(samples)) {
  const before = nsPerLine(plain, sample);
  const after = nsPerLine(sika, sample);
  process.stdout.write(
    `${name.padEnd(15)} pino ${before.toFixed(0).padStart(6)} ns/line   createLogger ${after.toFixed(0).padStart(6)} ns/line\n`,
  );
}
