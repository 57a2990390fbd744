import { payoutsV1 } from '@sika/contracts';
import {
  PAYOUT_ALIAS_TYPES,
  PAYOUT_FAILURE_CODES,
  PAYOUT_METHODS,
  type PayoutAliasType,
  type PayoutFailureCode,
  type PayoutMethod,
} from '@sika/rules';
import { z } from 'zod';
import { payoutStatus } from './enums';
import { toJsonAmount, toJsonDate } from './json';

const FAILURE_CODE_NAMES = Object.keys(PAYOUT_FAILURE_CODES) as [PayoutFailureCode, ...PayoutFailureCode[]];
const METHOD_NAMES = Object.keys(PAYOUT_METHODS) as [PayoutMethod, ...PayoutMethod[]];

const meanings = (table: Readonly<Record<string, string>>): string =>
  Object.entries(table)
    .map(([code, meaning]) => `\`${code}\`: ${meaning}`)
    .join(' ');

export const PayoutDestinationSchema = z
  .object({
    type: z
      .enum(PAYOUT_ALIAS_TYPES)
      .describe(
        'The kind of PI-SPI alias the account is registered by: `phone` (MBNO), `merchant_code` (MCOD) or ' +
          '`account_key` (SHID, a bank account).',
      ),
    alias: z.string().describe('The alias with its middle characters masked; never shown in clear.'),
    holder_name: z.string().describe("The account holder's name, as the scheme's directory gave it."),
  })
  .meta({ id: 'PayoutDestination', description: 'The payout account the payout goes to.' });

export const PayoutSchema = z
  .object({
    id: z.string().regex(/^po_[A-Za-z0-9]+$/),
    object: z.literal('payout'),
    amount: z.number().int().min(1).describe('XOF.'),
    currency: z.literal('XOF'),
    status: z.enum(payoutStatus.names),
    method: z.enum(METHOD_NAMES).describe(meanings(PAYOUT_METHODS)),
    destination: PayoutDestinationSchema,
    failure_code: z
      .enum(FAILURE_CODE_NAMES)
      .nullable()
      .describe(`Why the payout failed; null unless \`failed\`. ${meanings(PAYOUT_FAILURE_CODES)}`),
    created_at: z.iso.datetime(),
    paid_at: z.iso
      .datetime()
      .nullable()
      .describe('When the money reached the payout account; null until then.'),
    livemode: z.boolean(),
  })
  .meta({ id: 'Payout', description: 'A payout of the balance to the payout account (spec §2.5).' });

export type PublicPayout = z.infer<typeof PayoutSchema>;

const ALIAS_TYPE: Record<payoutsV1.AliasType, PayoutAliasType | undefined> = {
  [payoutsV1.AliasType.ALIAS_TYPE_UNSPECIFIED]: undefined,
  [payoutsV1.AliasType.ALIAS_TYPE_PHONE]: 'phone',
  [payoutsV1.AliasType.ALIAS_TYPE_MERCHANT_CODE]: 'merchant_code',
  [payoutsV1.AliasType.ALIAS_TYPE_ACCOUNT_KEY]: 'account_key',
  [payoutsV1.AliasType.UNRECOGNIZED]: undefined,
};

const METHOD: Record<payoutsV1.PayoutMethod, PayoutMethod | undefined> = {
  [payoutsV1.PayoutMethod.PAYOUT_METHOD_UNSPECIFIED]: undefined,
  [payoutsV1.PayoutMethod.PAYOUT_METHOD_AUTOMATIC]: 'automatic',
  [payoutsV1.PayoutMethod.PAYOUT_METHOD_MANUAL]: 'manual',
  [payoutsV1.PayoutMethod.UNRECOGNIZED]: undefined,
};

function known<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`a payout without a known ${what}`);
  return value;
}

export function renderPayout(payout: payoutsV1.Payout): PublicPayout {
  const destination = known(payout.destination, 'destination');
  return {
    id: payout.id,
    object: 'payout',
    amount: toJsonAmount(payout.amount),
    currency: 'XOF',
    status: payoutStatus.toPublic(payout.status) as PublicPayout['status'],
    method: known(METHOD[payout.method], 'method'),
    destination: {
      type: known(ALIAS_TYPE[destination.aliasType], 'alias type'),
      alias: destination.aliasMasked,
      holder_name: destination.holderName,
    },
    failure_code: (payout.failureCode as PayoutFailureCode | undefined) ?? null,
    created_at: toJsonDate(payout.createdAt),
    paid_at: payout.paidAt === undefined ? null : toJsonDate(payout.paidAt),
    livemode: payout.livemode,
  };
}
