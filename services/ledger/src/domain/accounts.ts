/** A merchant's own accounts, one of each per mode. */
export type MerchantAccountKind = 'available' | 'pending_payout';

/**
 * Sika's accounts, one of each per mode: `scheme_settlement` is the counterpart of money received through
 * PI-SPI (the scheme owes or has paid it to Sika), `fee_revenue` collects Sika's fees, `refunds_payable` holds
 * money customers paid by mistake until it has gone back to them, `adjustments` is the counterpart of
 * operators' corrections (negative: what they added to merchants' balances, net).
 */
export type SystemAccountKind = 'scheme_settlement' | 'fee_revenue' | 'refunds_payable' | 'adjustments';

/** The owner id of system accounts; merchant accounts are owned by their `mer_…` id. */
export const SYSTEM_OWNER = 'sika';

/** An account named relative to a scope: the scope's merchant's, or Sika's in the scope's mode. */
export type AccountRef =
  { owner: 'merchant'; kind: MerchantAccountKind } | { owner: 'system'; kind: SystemAccountKind };

export const merchantAccount = (kind: MerchantAccountKind): AccountRef => ({ owner: 'merchant', kind });
export const systemAccount = (kind: SystemAccountKind): AccountRef => ({ owner: 'system', kind });
