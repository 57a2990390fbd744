import type { ledgerV1 } from '@sika/contracts';
import { z } from 'zod';
import { balanceTransactionType } from './enums';
import { toJsonAmount, toJsonDate } from './json';

export const BalanceSchema = z
  .object({
    object: z.literal('balance'),
    available: z.number().int().min(0).describe('Available for payout, fees already deducted.'),
    pending_payout: z.number().int().min(0).describe('Reserved by payouts in progress.'),
    currency: z.literal('XOF'),
    livemode: z.boolean(),
  })
  .meta({ id: 'Balance', description: 'The balance of the environment of the key used (spec §2.3).' });

export const BalanceTransactionSchema = z
  .object({
    id: z.string().regex(/^txn_[A-Za-z0-9]+$/),
    object: z.literal('balance_transaction'),
    type: z.enum(balanceTransactionType.names),
    amount: z.number().int().describe('Signed: credits are positive, fees and payouts negative.'),
    currency: z.literal('XOF'),
    source_id: z
      .string()
      .describe(
        'The originating payment (`pay_...`) or payout (`po_...`); for an adjustment, its own id (`adj_...`).',
      ),
    created_at: z.iso.datetime(),
    livemode: z.boolean(),
  })
  .meta({ id: 'BalanceTransaction', description: 'A movement of the merchant account (spec §2.4).' });

export type PublicBalance = z.infer<typeof BalanceSchema>;
export type PublicBalanceTransaction = z.infer<typeof BalanceTransactionSchema>;

export function renderBalance(balance: ledgerV1.Balance): PublicBalance {
  return {
    object: 'balance',
    available: toJsonAmount(balance.available),
    pending_payout: toJsonAmount(balance.pendingPayout),
    currency: 'XOF',
    livemode: balance.livemode,
  };
}

export function renderBalanceTransaction(movement: ledgerV1.BalanceTransaction): PublicBalanceTransaction {
  return {
    id: movement.id,
    object: 'balance_transaction',
    type: balanceTransactionType.toPublic(movement.type),
    amount: toJsonAmount(movement.amount),
    currency: 'XOF',
    source_id: movement.sourceId,
    created_at: toJsonDate(movement.createdAt),
    livemode: movement.livemode,
  };
}
