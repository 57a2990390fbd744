import { Writable } from 'node:stream';

import { runWithContext } from './context';
import { createLogger } from './logger';

function capture(): { lines: () => Record<string, unknown>[]; text: () => string; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const SECRET_KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ALIAS = '+225 0700000001';

describe('createLogger', () => {
  it('writes JSON lines with service, textual level and ISO time', () => {
    const output = capture();
    const logger = createLogger({ service: 'payments', destination: output.stream });

    logger.info({ payment_id: 'pay_1' }, 'payment created');

    const [line] = output.lines();
    expect(line).toMatchObject({
      service: 'payments',
      level: 'info',
      payment_id: 'pay_1',
      msg: 'payment created',
    });
    expect(String(line?.['time'])).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('never writes secret keys, webhook secrets, passwords, aliases or auth headers', () => {
    const output = capture();
    const logger = createLogger({ service: 'gateway', destination: output.stream });

    logger.info({ authorization: `Bearer ${SECRET_KEY}`, password: 'hunter2' }, 'top level');
    logger.info({ merchant: { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET } }, 'one level down');
    logger.info(
      {
        req: { headers: { authorization: `Bearer ${SECRET_KEY}`, cookie: 'session=abc123' } },
        res: { headers: { 'set-cookie': 'session=abc123' } },
      },
      'http headers',
    );
    logger.info(
      { customer_alias: ALIAS, body: { customer_alias: ALIAS }, request: { payer: { alias: ALIAS } } },
      'alias',
    );
    logger.info(
      { config: { DATABASE_URL: 'postgresql://payments:p4ssw0rd@db/sika', webhookSecret: WEBHOOK_SECRET } },
      'cfg',
    );

    const text = output.text();
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET, 'hunter2', '0700000001', 'abc123', 'p4ssw0rd']) {
      expect(text).not.toContain(secret);
    }
    expect(output.lines()[2]).toMatchObject({
      req: { headers: { authorization: '[REDACTED]', cookie: '[REDACTED]' } },
      res: { headers: { 'set-cookie': '[REDACTED]' } },
    });
  });

  it('adds the request id of the current context to every line', () => {
    const output = capture();
    const logger = createLogger({ service: 'ledger', destination: output.stream });

    runWithContext({ requestId: 'req_abc' }, () => logger.info('inside'));
    logger.info('outside');

    const [inside, outside] = output.lines();
    expect(inside).toMatchObject({ request_id: 'req_abc', msg: 'inside' });
    expect(outside).not.toHaveProperty('request_id');
  });

  it('honours the level', () => {
    const output = capture();
    const logger = createLogger({ service: 'ledger', level: 'warn', destination: output.stream });

    logger.info('hidden');
    logger.warn('shown');

    expect(output.lines().map((line) => line['msg'])).toEqual(['shown']);
  });
});
