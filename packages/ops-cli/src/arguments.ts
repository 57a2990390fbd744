import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

import { isId } from '@sika/platform';
import { PAYOUT_SCHEDULES, type PayoutSchedule } from '@sika/rules';
import { z } from 'zod';

/** A command line the tool cannot run: reported with the usage, exit status 2. */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
}

export type Command =
  | { command: 'help' }
  | { command: 'merchant:create'; json: boolean; name: string; webhookUrl: string | undefined }
  | { command: 'merchant:renew-key'; json: boolean; merchantId: string; livemode: boolean }
  | { command: 'merchant:show' | 'merchant:approve'; json: boolean; merchantId: string }
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
const renewKeySchema = z.object({ merchant: merchantId, mode: livemode });
const merchantSchema = z.object({ merchant: merchantId });
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

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;
const STRING = { type: 'string' } as const;

/** The command's options, strictly: unknown options, missing values and stray words are errors. */
function readOptions(
  args: readonly string[],
  options: Options,
): Record<string, string | boolean | undefined> {
  try {
    const { values } = parseArgs({
      args: [...args],
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

/** Reads `argv` (what follows `sika-ops`); throws ArgumentError for anything it cannot run. */
export function parseCommand(argv: readonly string[]): Command {
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
      const { json, help, ...values } = readOptions(args, { merchant: STRING, mode: STRING });
      if (help === true) return { command: 'help' };
      const valid = validate(renewKeySchema, values);
      return { command, json: json === true, merchantId: valid.merchant, livemode: valid.mode };
    }
    case 'merchant:show':
    case 'merchant:approve': {
      const { json, help, ...values } = readOptions(args, { merchant: STRING });
      if (help === true) return { command: 'help' };
      return { command, json: json === true, merchantId: validate(merchantSchema, values).merchant };
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
    default:
      throw new ArgumentError(`unknown command '${command}'`);
  }
}
