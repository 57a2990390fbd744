import { ArgumentError, parseCommand } from './arguments';

const MERCHANT = 'mer_3kTMd9Qx0bW7vYcN1LzR8aPf';

function argumentError(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    return (error as ArgumentError).message;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

describe('parseCommand', () => {
  it.each([[['help']], [['--help']], [['-h']], [['merchant:create', '--help']], [['webhook:set', '-h']]])(
    'reads %j as a request for help',
    (argv) => {
      expect(parseCommand(argv)).toEqual({ command: 'help' });
    },
  );

  it('refuses an empty command line and unknown commands', () => {
    expect(argumentError([])).toBe('no command given');
    expect(argumentError(['merchant:delete'])).toBe("unknown command 'merchant:delete'");
    expect(argumentError(['--json'])).toBe("unknown command '--json'");
  });

  describe('merchant:create', () => {
    it('reads the name, the optional webhook URL and --json', () => {
      expect(parseCommand(['merchant:create', '--name', 'Boutique Adjoua', '--json'])).toEqual({
        command: 'merchant:create',
        json: true,
        name: 'Boutique Adjoua',
        webhookUrl: undefined,
      });
      expect(
        parseCommand([
          'merchant:create',
          '--name=  Chez Awa ',
          '--webhook-url',
          'https://shop.example/hooks',
        ]),
      ).toEqual({
        command: 'merchant:create',
        json: false,
        name: 'Chez Awa',
        webhookUrl: 'https://shop.example/hooks',
      });
      expect(
        parseCommand(['merchant:create', '--name', 'Local', '--webhook-url', 'http://127.0.0.1:4000/h']),
      ).toMatchObject({
        webhookUrl: 'http://127.0.0.1:4000/h',
      });
    });

    it.each([
      [['merchant:create'], '--name is required'],
      [['merchant:create', '--name', '   '], '--name must not be empty'],
      [['merchant:create', '--name', 'x'.repeat(101)], '--name must be at most 100 characters'],
      [
        ['merchant:create', '--name', 'A', '--webhook-url', 'ftp://x.example'],
        '--webhook-url must be an http:// or https:// URL',
      ],
      [
        ['merchant:create', '--name', 'A', '--webhook-url', 'not a url'],
        '--webhook-url must be an http:// or https:// URL',
      ],
    ])('refuses %j: %s', (argv, message) => {
      expect(argumentError(argv)).toBe(message);
    });

    it('counts the name in characters as read, not in UTF-16 units', () => {
      expect(parseCommand(['merchant:create', '--name', '🙂'.repeat(100)])).toMatchObject({
        name: '🙂'.repeat(100),
      });
    });

    it('refuses unknown options, options without their value and stray words', () => {
      expect(argumentError(['merchant:create', '--name', 'A', '--colour', 'blue'])).toMatch(/--colour/);
      expect(argumentError(['merchant:create', '--name'])).toMatch(/--name/);
      expect(argumentError(['merchant:create', '--name', 'A', 'extra'])).toMatch(/extra/);
      expect(argumentError(['merchant:create', '--name', 'A', '--mode', 'test'])).toMatch(/--mode/);
    });
  });

  describe('merchant:renew-key', () => {
    it('reads the merchant and the mode', () => {
      expect(
        parseCommand(['merchant:renew-key', '--merchant', MERCHANT, '--mode', 'live', '--json']),
      ).toEqual({
        command: 'merchant:renew-key',
        json: true,
        merchantId: MERCHANT,
        livemode: true,
        expirePreviousAfterSeconds: undefined,
      });
      expect(parseCommand(['merchant:renew-key', '--mode', 'test', '--merchant', MERCHANT])).toEqual({
        command: 'merchant:renew-key',
        json: false,
        merchantId: MERCHANT,
        livemode: false,
        expirePreviousAfterSeconds: undefined,
      });
      expect(
        parseCommand([
          'merchant:renew-key',
          '--merchant',
          MERCHANT,
          '--mode',
          'test',
          '--expire-previous-after',
          '86400',
        ]),
      ).toMatchObject({ expirePreviousAfterSeconds: 86_400 });
    });

    it.each([
      [['merchant:renew-key', '--mode', 'test'], '--merchant is required'],
      [['merchant:renew-key', '--merchant', MERCHANT], '--mode is required'],
      [['merchant:renew-key', '--merchant', MERCHANT, '--mode', 'prod'], "--mode must be 'test' or 'live'"],
      [
        ['merchant:renew-key', '--merchant', 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf', '--mode', 'test'],
        "--merchant must be a merchant id such as 'mer_…'",
      ],
      [
        ['merchant:renew-key', '--merchant', 'mer_short', '--mode', 'test'],
        "--merchant must be a merchant id such as 'mer_…'",
      ],
      [['merchant:renew-key'], '--merchant is required; --mode is required'],
      [
        ['merchant:renew-key', '--merchant', MERCHANT, '--mode', 'test', '--expire-previous-after', '604801'],
        '--expire-previous-after must be at most 604800 seconds (7 days)',
      ],
    ])('refuses %j: %s', (argv, message) => {
      expect(argumentError(argv)).toBe(message);
    });
  });

  describe.each(['merchant:show', 'merchant:approve'] as const)('%s', (command) => {
    it('reads the merchant and --json', () => {
      expect(parseCommand([command, '--merchant', MERCHANT, '--json'])).toEqual({
        command,
        json: true,
        merchantId: MERCHANT,
      });
      expect(parseCommand([command, `--merchant=${MERCHANT}`])).toEqual({
        command,
        json: false,
        merchantId: MERCHANT,
      });
    });

    it('refuses a missing or malformed merchant, a mode, and the id without its option', () => {
      expect(argumentError([command])).toBe('--merchant is required');
      expect(argumentError([command, '--merchant', 'mer_short'])).toBe(
        "--merchant must be a merchant id such as 'mer_…'",
      );
      expect(argumentError([command, '--merchant', MERCHANT, '--mode', 'live'])).toMatch(/--mode/);
      expect(argumentError([command, MERCHANT])).toMatch(MERCHANT);
    });
  });

  describe('merchant:emails', () => {
    it('reads an optional merchant and limit (20 by default)', () => {
      expect(parseCommand(['merchant:emails', '--merchant', MERCHANT, '--limit', '5', '--json'])).toEqual({
        command: 'merchant:emails',
        json: true,
        merchantId: MERCHANT,
        limit: 5,
      });
      expect(parseCommand(['merchant:emails'])).toEqual({
        command: 'merchant:emails',
        json: false,
        merchantId: undefined,
        limit: 20,
      });
    });

    it('refuses a malformed merchant and a limit outside 1 to 100', () => {
      expect(argumentError(['merchant:emails', '--merchant', 'mer_short'])).toMatch(/merchant id/);
      expect(argumentError(['merchant:emails', '--limit', '0'])).toBe('--limit must be from 1 to 100');
      expect(argumentError(['merchant:emails', '--limit', 'many'])).toBe('--limit must be a whole number');
    });
  });

  describe('webhook:set', () => {
    it('reads the merchant, the mode and the URL', () => {
      expect(
        parseCommand([
          'webhook:set',
          '--merchant',
          MERCHANT,
          '--mode',
          'test',
          '--url',
          'https://a.example/w',
          '--json',
        ]),
      ).toEqual({
        command: 'webhook:set',
        json: true,
        merchantId: MERCHANT,
        livemode: false,
        url: 'https://a.example/w',
      });
    });

    it.each([
      [['webhook:set', '--merchant', MERCHANT, '--mode', 'live'], '--url is required'],
      [
        ['webhook:set', '--merchant', MERCHANT, '--mode', 'live', '--url', 'javascript:alert(1)'],
        '--url must be an http:// or https:// URL',
      ],
    ])('refuses %j: %s', (argv, message) => {
      expect(argumentError(argv)).toBe(message);
    });
  });
});

describe('payment:simulate', () => {
  it('reads the payment id and --json', () => {
    expect(parseCommand(['payment:simulate', '--payment', 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf', '--json'])).toEqual(
      {
        command: 'payment:simulate',
        json: true,
        paymentId: 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
      },
    );
  });

  it.each([
    [['payment:simulate'], '--payment is required'],
    [['payment:simulate', '--payment', MERCHANT], "--payment must be a payment id such as 'pay_…'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(argumentError(argv)).toBe(message);
  });
});

describe('audit', () => {
  it('audits test mode unless told otherwise', () => {
    expect(parseCommand(['audit', '--json'])).toEqual({ command: 'audit', json: true, livemode: false });
    expect(parseCommand(['audit', '--mode', 'live'])).toEqual({
      command: 'audit',
      json: false,
      livemode: true,
    });
    expect(argumentError(['audit', '--mode', 'prod'])).toBe("--mode must be 'test' or 'live'");
  });
});

describe('payout accounts and schedules', () => {
  it('reads payout-account:set, :confirm and :show', () => {
    expect(
      parseCommand([
        'payout-account:set',
        '--merchant',
        MERCHANT,
        '--mode',
        'live',
        '--alias',
        '+225 0700000100',
      ]),
    ).toEqual({
      command: 'payout-account:set',
      json: false,
      merchantId: MERCHANT,
      livemode: true,
      alias: '+225 0700000100',
    });
    expect(
      parseCommand([
        'payout-account:confirm',
        '--merchant',
        MERCHANT,
        '--mode',
        'test',
        '--holder-name',
        'Boutique Adjoua',
        '--json',
      ]),
    ).toEqual({
      command: 'payout-account:confirm',
      json: true,
      merchantId: MERCHANT,
      livemode: false,
      holderName: 'Boutique Adjoua',
    });
    expect(parseCommand(['payout-account:show', '--merchant', MERCHANT, '--mode', 'test'])).toEqual({
      command: 'payout-account:show',
      json: false,
      merchantId: MERCHANT,
      livemode: false,
    });
  });

  it('reads payout-schedule:set with daily or manual only', () => {
    expect(
      parseCommand(['payout-schedule:set', '--merchant', MERCHANT, '--mode', 'live', '--schedule', 'manual']),
    ).toMatchObject({ command: 'payout-schedule:set', livemode: true, schedule: 'manual' });
    expect(
      argumentError([
        'payout-schedule:set',
        '--merchant',
        MERCHANT,
        '--mode',
        'live',
        '--schedule',
        'weekly',
      ]),
    ).toBe("--schedule must be 'daily' or 'manual'");
  });

  it('requires the alias and the holder name, not empty', () => {
    expect(argumentError(['payout-account:set', '--merchant', MERCHANT, '--mode', 'test'])).toBe(
      '--alias is required',
    );
    expect(
      argumentError([
        'payout-account:confirm',
        '--merchant',
        MERCHANT,
        '--mode',
        'test',
        '--holder-name',
        ' ',
      ]),
    ).toBe('--holder-name must not be empty');
  });
});

describe('ledger:adjust', () => {
  const adjust = (...extra: string[]) => [
    'ledger:adjust',
    '--merchant',
    MERCHANT,
    '--mode',
    'test',
    '--reason',
    'Fee charged twice on pay_123',
    '--idempotency-key',
    'ticket-4521',
    ...extra,
  ];

  it('reads a negative amount written after --amount, as the shell passes it', () => {
    expect(parseCommand(adjust('--amount', '-500', '--operator', 'awa', '--json'))).toEqual({
      command: 'ledger:adjust',
      json: true,
      merchantId: MERCHANT,
      livemode: false,
      amount: -500n,
      reason: 'Fee charged twice on pay_123',
      idempotencyKey: 'ticket-4521',
      operator: 'awa',
    });
    expect(parseCommand(adjust('--amount=-7', '--operator', 'awa'))).toMatchObject({ amount: -7n });
    expect(parseCommand(adjust('--amount', '+1200', '--operator', 'awa'))).toMatchObject({ amount: 1_200n });
  });

  it('takes the operator from SIKA_OPERATOR when --operator is not given, --operator first', () => {
    expect(parseCommand(adjust('--amount', '5'), { SIKA_OPERATOR: 'kofi' })).toMatchObject({
      operator: 'kofi',
    });
    expect(
      parseCommand(adjust('--amount', '5', '--operator', 'awa'), { SIKA_OPERATOR: 'kofi' }),
    ).toMatchObject({ operator: 'awa' });
  });

  it.each([
    [
      ['--amount', '0', '--operator', 'awa'],
      '--amount must be a whole number of francs other than 0, such as 500 or -500',
    ],
    [
      ['--amount', '12.5', '--operator', 'awa'],
      '--amount must be a whole number of francs other than 0, such as 500 or -500',
    ],
    [
      ['--amount', '-', '--operator', 'awa'],
      '--amount must be a whole number of francs other than 0, such as 500 or -500',
    ],
    [
      ['--amount', '9223372036854775808', '--operator', 'awa'],
      '--amount must be a whole number of francs other than 0, such as 500 or -500',
    ],
    [[], '--amount is required; --operator is required (or set SIKA_OPERATOR): who asks for the adjustment'],
    [['--amount', '5', '--operator', '  '], '--operator must not be empty'],
    [['--amount', '5', '--operator', 'awa', '--reason', ' '], '--reason must not be empty'],
    [
      ['--amount', '5', '--operator', 'awa', '--reason', 'r'.repeat(501)],
      '--reason must be at most 500 characters',
    ],
  ])('refuses %j: %s', (extra, message) => {
    expect(argumentError(adjust(...extra))).toBe(message);
  });

  it('needs the merchant, the mode, the reason and the key', () => {
    expect(argumentError(['ledger:adjust', '--amount', '-5', '--operator', 'awa'])).toBe(
      '--merchant is required; --mode is required; --reason is required; --idempotency-key is required',
    );
  });
});
