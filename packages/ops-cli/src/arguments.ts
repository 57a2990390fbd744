import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

import { isId, MAX_OVERLAP_SECONDS } from '@sika/platform';
import { PAYOUT_SCHEDULES, type PayoutSchedule } from '@sika/rules';
import { z } from 'zod';

/** A command line the tool cannot run: reported with the usage, exit status 2. */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
}

export type Command =
  | { command: 'help' }
  | { command: 'merchant:create'; json: boolean; name: string; webhookUrl: string | undefined }
  | {
      command: 'merchant:renew-key';
      json: boolean;
      merchantId: string;
      livemode: boolean;
      /** How long the replaced key keeps working; undefined: it stops at once. */
      expirePreviousAfterSeconds: number | undefined;
    }
  | { command: 'merchant:show' | 'merchant:approve'; json: boolean; merchantId: string }
  | { command: 'merchant:emails'; json: boolean; merchantId: string | undefined; limit: number }
  | { command: 'webhook:set'; json: boolean; merchantId: string; livemode: boolean; url: string }
  | { command: 'payment:simulate'; json: boolean; paymentId: string }
  | { command: 'audit'; json: boolean; livemode: boolean }
  | { command: 'payout-account:set'; json: boolean; merchantId: string; livemode: boolean; alias: string }
  | {
      command: 'payout-account:confirm';
      json: boolean;
      merchantId: string;
      livemode: boolean;
      holderName: string;
    }
  | { command: 'payout-account:show'; json: boolean; merchantId: string; livemode: boolean }
  | {
      command: 'payout-schedule:set';
      json: boolean;
      merchantId: string;
      livemode: boolean;
      schedule: PayoutSchedule;
    }
  | {
      command: 'ledger:adjust';
      json: boolean;
      merchantId: string;
      livemode: boolean;
      amount: bigint;
      reason: string;
      idempotencyKey: string;
      operator: string;
    };

/** The merchants service's own rule, checked here too so that a typo never reaches a service. */
const MERCHANT_NAME_MAX_LENGTH = 100;

/** "--x is required" when absent, `invalid` when present but wrong. */
function messages(option: string, invalid: string) {
  return {
    error: (issue: { input?: unknown }) => (issue.input === undefined ? `${option} is required` : invalid),
  };
}

const merchantName = z
  .string(messages('--name', '--name must be text'))
  .trim()
  .refine((value) => value.length > 0, '--name must not be empty')
  .refine(
    (value) => Array.from(value).length <= MERCHANT_NAME_MAX_LENGTH,
    `--name must be at most ${MERCHANT_NAME_MAX_LENGTH} characters`,
  );
const merchantId = z
  .string(messages('--merchant', '--merchant must be text'))
  .refine((value) => isId('mer', value), "--merchant must be a merchant id such as 'mer_…'");
const livemode = z
  .enum(['test', 'live'], messages('--mode', "--mode must be 'test' or 'live'"))
  .transform((mode) => mode === 'live');
const webhookUrl = (option: string) =>
  z.url({ protocol: /^https?$/, ...messages(option, `${option} must be an http:// or https:// URL`) });

const paymentId = z
  .string(messages('--payment', '--payment must be text'))
  .refine((value) => isId('pay', value), "--payment must be a payment id such as 'pay_…'");

const createSchema = z.object({ name: merchantName, 'webhook-url': webhookUrl('--webhook-url').optional() });
const renewKeySchema = z.object({
  merchant: merchantId,
  mode: livemode,
  'expire-previous-after': z
    .string()
    .regex(/^\d+$/, '--expire-previous-after must be a whole number of seconds')
    .transform(Number)
    .refine(
      (seconds) => seconds <= MAX_OVERLAP_SECONDS,
      `--expire-previous-after must be at most ${MAX_OVERLAP_SECONDS} seconds (7 days)`,
    )
    .optional(),
});
const merchantSchema = z.object({ merchant: merchantId });
const emailsSchema = z.object({
  merchant: merchantId.optional(),
  limit: z
    .string()
    .regex(/^\d+$/, '--limit must be a whole number')
    .transform(Number)
    .refine((limit) => limit >= 1 && limit <= 100, '--limit must be from 1 to 100')
    .default(20),
});
const webhookSetSchema = z.object({ merchant: merchantId, mode: livemode, url: webhookUrl('--url') });
const simulateSchema = z.object({ payment: paymentId });
const auditSchema = z.object({ mode: livemode.default(false) });
const requiredText = (option: string) =>
  z
    .string(messages(option, `${option} must be text`))
    .trim()
    .refine((value) => value.length > 0, `${option} must not be empty`);
const payoutAccountSetSchema = z.object({
  merchant: merchantId,
  mode: livemode,
  alias: requiredText('--alias'),
});
const payoutAccountConfirmSchema = z.object({
  merchant: merchantId,
  mode: livemode,
  'holder-name': requiredText('--holder-name'),
});
const scopeSchema = z.object({ merchant: merchantId, mode: livemode });
const payoutScheduleSchema = z.object({
  merchant: merchantId,
  mode: livemode,
  schedule: z.enum(PAYOUT_SCHEDULES, messages('--schedule', "--schedule must be 'daily' or 'manual'")),
});

/** The ledger's own limits, checked here too so that a typo never reaches it. */
const ADJUSTMENT_REASON_MAX_LENGTH = 500;
const OPERATOR_MAX_LENGTH = 100;
const INT64_MAX = 2n ** 63n - 1n;

const boundedText = (option: string, maxLength: number) =>
  requiredText(option).refine(
    (value) => Array.from(value).length <= maxLength,
    `${option} must be at most ${maxLength} characters`,
  );
const AMOUNT_MESSAGE = '--amount must be a whole number of francs other than 0, such as 500 or -500';
const adjustmentAmount = z
  .string(messages('--amount', AMOUNT_MESSAGE))
  .regex(/^[+-]?[0-9]{1,19}$/, AMOUNT_MESSAGE)
  .transform((value) => BigInt(value))
  .refine((value) => value !== 0n && value <= INT64_MAX && value >= -INT64_MAX, AMOUNT_MESSAGE);
const ledgerAdjustSchema = z.object({
  merchant: merchantId,
  mode: livemode,
  amount: adjustmentAmount,
  reason: boundedText('--reason', ADJUSTMENT_REASON_MAX_LENGTH),
  'idempotency-key': boundedText('--idempotency-key', 255),
  operator: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? '--operator is required (or set SIKA_OPERATOR): who asks for the adjustment'
          : '--operator must be text',
    })
    .trim()
    .refine((value) => value.length > 0, '--operator must not be empty')
    .refine(
      (value) => Array.from(value).length <= OPERATOR_MAX_LENGTH,
      `--operator must be at most ${OPERATOR_MAX_LENGTH} characters`,
    ),
});

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;
const STRING = { type: 'string' } as const;

/**
 * `--amount -500` as `--amount=-500`: parseArgs takes a value that starts with a dash for a mistyped option and
 * refuses it, where a negative number can only be the value.
 */
function negativeNumbersAsValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (/^--[^=]+$/.test(arg) && next !== undefined && /^-[0-9]+$/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** The command's options, strictly: unknown options, missing values and stray words are errors. */
function readOptions(
  args: readonly string[],
  options: Options,
): Record<string, string | boolean | undefined> {
  try {
    const { values } = parseArgs({
      args: negativeNumbersAsValues(args),
      options: { ...COMMON_OPTIONS, ...options },
      strict: true,
      allowPositionals: false,
    });
    return values as Record<string, string | boolean | undefined>;
  } catch (error) {
    // parseArgs explains unknown options, missing values and stray arguments well: its message is kept.
    throw new ArgumentError((error as Error).message);
  }
}

function validate<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(values);
  if (!result.success) throw new ArgumentError(result.error.issues.map((issue) => issue.message).join('; '));
  return result.data;
}

/**
 * Reads `argv` (what follows `sika-ops`); throws ArgumentError for anything it cannot run. `env` gives the
 * defaults options may have (SIKA_OPERATOR).
 */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Command {
  const [command, ...args] = argv;
  if (command === undefined) throw new ArgumentError('no command given');
  if (command === 'help' || command === '--help' || command === '-h') return { command: 'help' };

  switch (command) {
    case 'merchant:create': {
      const { json, help, ...values } = readOptions(args, { name: STRING, 'webhook-url': STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(createSchema, values);
      return { command, json: json === true, name: valid.name, webhookUrl: valid['webhook-url'] };
    }
    case 'merchant:renew-key': {
      const { json, help, ...values } = readOptions(args, {
        merchant: STRING,
        mode: STRING,
        'expire-previous-after': STRING,
      });
      if (help === true) return { command: 'help' };
      const valid = validate(renewKeySchema, values);
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        expirePreviousAfterSeconds: valid['expire-previous-after'],
      };
    }
    case 'merchant:show':
    case 'merchant:approve': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING });
      if (help === true) return { command: 'help' };
      return { command, json: json === true, merchantId: validate(merchantSchema, values).merchant };
    }
    case 'merchant:emails': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING, limit: STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(emailsSchema, values);
      return { command, json: json === true, merchantId: valid.merchant, limit: valid.limit };
    }
    case 'webhook:set': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING, mode: STRING, url: STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(webhookSetSchema, values);
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        url: valid.url,
      };
    }
    case 'audit': {
      const { json, help, ...values } = readOptions(args, { mode: STRING });
      if (help === true) return { command: 'help' };
      return { command, json: json === true, livemode: validate(auditSchema, values).mode };
    }
    case 'payment:simulate': {
      const { json, help, ...values } = readOptions(args, { payment: STRING });
      if (help === true) return { command: 'help' };
      return { command, json: json === true, paymentId: validate(simulateSchema, values).payment };
    }
    case 'payout-account:set': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING, mode: STRING, alias: STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(payoutAccountSetSchema, values);
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        alias: valid.alias,
      };
    }
    case 'payout-account:confirm': {
      const options = { merchant: STRING, mode: STRING, 'holder-name': STRING };
      const { json, help, ...values } = readOptions(args, options);
      if (help === true) return { command: 'help' };
      const valid = validate(payoutAccountConfirmSchema, values);
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        holderName: valid['holder-name'],
      };
    }
    case 'payout-account:show': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING, mode: STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(scopeSchema, values);
      return { command, json: json === true, merchantId: valid.merchant, livemode: valid.mode };
    }
    case 'payout-schedule:set': {
      const { json, help, ...values } = readOptions(args, {
        merchant: STRING,
        mode: STRING,
        schedule: STRING,
      });
      if (help === true) return { command: 'help' };
      const valid = validate(payoutScheduleSchema, values);
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        schedule: valid.schedule,
      };
    }
    case 'ledger:adjust': {
      const { json, help, ...values } = readOptions(args, {
        merchant: STRING,
        mode: STRING,
        amount: STRING,
        reason: STRING,
        'idempotency-key': STRING,
        operator: STRING,
      });
      if (help === true) return { command: 'help' };
      const valid = validate(ledgerAdjustSchema, {
        ...values,
        operator: values.operator ?? (env.SIKA_OPERATOR || undefined),
      });
      return {
        command,
        json: json === true,
        merchantId: valid.merchant,
        livemode: valid.mode,
        amount: valid.amount,
        reason: valid.reason,
        idempotencyKey: valid['idempotency-key'],
        operator: valid.operator,
      };
    }
    default:
      throw new ArgumentError(`unknown command '${command}'`);
  }
}
