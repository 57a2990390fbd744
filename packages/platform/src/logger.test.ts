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

  it('redacts payer and payee fields of scheme payloads at any depth, and secrets inside any text', () => {
    const output = capture();
    const logger = createLogger({ service: 'psp-connector', destination: output.stream });
    const callback = {
      body: {
        events: [
          {
            demande: {
              payeur: { alias: ALIAS, nom: 'Kone', prenom: 'Awa' },
              payeurAlias: ALIAS,
              payeNom: 'Boutique Adjoua',
              client: { raisonSociale: 'Adjoua SARL', compte: { iban: 'CI0080100000000123456789' } },
              statut: 'PAYE',
            },
          },
        ],
      },
      headers: { 'X-Signature': 'c2lnbmF0dXJl', 'Service-Signature': 't=1,v1=abc' },
      oauth: { client_secret: 'cs-1', clientSecret: 'cs-2' },
    };

    logger.info(callback, 'callback received');
    logger.warn(`key ${SECRET_KEY} and ${WEBHOOK_SECRET} refused for ${ALIAS}`);
    logger.child({ payout: { holder_name: 'Marchand Test Sika' } }).info('child bindings');

    const text = output.text();
    for (const secret of [
      SECRET_KEY,
      WEBHOOK_SECRET,
      '0700000001',
      'Kone',
      'Awa',
      'Adjoua',
      'CI0080100000000123456789',
      'c2lnbmF0dXJl',
      'v1=abc',
      'cs-1',
      'cs-2',
      'Marchand Test Sika',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(output.lines()[0]).toMatchObject({ body: { events: [{ demande: { statut: 'PAYE' } }] } });
    expect(output.lines()[1]?.['msg']).toBe(
      'key sk_live_[REDACTED] and whsec_[REDACTED] refused for +225 07******01',
    );
  });

  it('logs errors as name, message, code, stack and cause, never their other properties', () => {
    const output = capture();
    const logger = createLogger({ service: 'payments', destination: output.stream });
    const prismaError = Object.assign(
      new Error(
        '\nInvalid `prisma.paymentAttempt.create()` invocation:\n\n{\n  data: {\n    payerAlias: "+225 0700000001"\n' +
          '  }\n}\n\nArgument `sequence` is missing.',
      ),
      { name: 'PrismaClientValidationError', clientVersion: '6.19.3' },
    );
    const knownError = Object.assign(new Error('Unique constraint failed'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2002',
      meta: { target: ['payer_alias'], args: { alias: 'Kone Awa' } },
    });

    logger.error({ err: new Error('use case failed', { cause: knownError }) }, 'request failed');
    logger.error(prismaError);
    logger.error({ err: prismaError });

    const [wrapped, alone, withoutMessage] = output.lines();
    expect(wrapped?.['err']).toEqual({
      name: 'Error',
      message: 'use case failed',
      stack: expect.stringMatching(/^Error: use case failed\n/) as unknown,
      cause: {
        name: 'PrismaClientKnownRequestError',
        message: 'Unique constraint failed',
        code: 'P2002',
        stack: expect.any(String) as unknown,
      },
    });
    expect(alone).toMatchObject({ msg: 'Argument `sequence` is missing.' });
    expect(withoutMessage).toMatchObject({ msg: 'Argument `sequence` is missing.' });
    expect(output.text()).not.toContain('0700000001');
    expect(output.text()).not.toContain('Kone Awa');
    expect(output.text()).not.toContain('clientVersion');
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
