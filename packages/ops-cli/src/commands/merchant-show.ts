import { merchantsV1 } from '@sika/contracts';

import type { Services } from '../services';

export type ActivationStatus = 'not_requested' | 'pending_review' | 'approved';

export interface ActivationView {
  status: ActivationStatus;
  requested_at: string | null;
  approved_at: string | null;
  /** What the merchant submitted for review; null until it asks. */
  details: {
    legal_name: string;
    registration_number: string;
    contact_name: string;
    contact_email: string;
    contact_phone: string;
  } | null;
}

export interface MerchantView {
  merchant_id: string;
  name: string;
  live_enabled: boolean;
  created_at: string | null;
  fee_rule: { rate_bps: number; fixed_amount: number };
  activation: ActivationView;
  /** The active key of each mode by its last four characters: keys are never shown again. */
  secret_keys: {
    livemode: boolean;
    last_four: string;
    created_at: string | null;
    /** A replaced key still working until then; null for the current key. */
    expires_at: string | null;
  }[];
}

const STATUSES: Partial<Record<merchantsV1.ActivationStatus, ActivationStatus>> = {
  [merchantsV1.ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW]: 'pending_review',
  [merchantsV1.ActivationStatus.ACTIVATION_STATUS_APPROVED]: 'approved',
};

const isoOrNull = (date: Date | undefined): string | null => date?.toISOString() ?? null;

export function activationViewOf(merchant: merchantsV1.Merchant): ActivationView {
  const { activation } = merchant;
  const status = (activation && STATUSES[activation.status]) ?? 'not_requested';
  return {
    status,
    requested_at: isoOrNull(activation?.requestedAt),
    approved_at: isoOrNull(activation?.approvedAt),
    details:
      activation === undefined || status === 'not_requested'
        ? null
        : {
            legal_name: activation.legalName,
            registration_number: activation.registrationNumber,
            contact_name: activation.contactName,
            contact_email: activation.contactEmail,
            contact_phone: activation.contactPhone,
          },
  };
}

/** The merchant as an operator reviews it: its activation for live use and its keys' last four characters. */
export async function showMerchant(
  services: Pick<Services, 'getMerchant' | 'listSecretKeys'>,
  { merchantId }: { merchantId: string },
): Promise<MerchantView> {
  const [merchant, keys] = await Promise.all([
    services.getMerchant(merchantId),
    services.listSecretKeys(merchantId),
  ]);
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    live_enabled: merchant.liveEnabled,
    created_at: isoOrNull(merchant.createdAt),
    fee_rule: {
      rate_bps: merchant.feeRule?.rateBps ?? 0,
      fixed_amount: Number(merchant.feeRule?.fixedAmount ?? 0n),
    },
    activation: activationViewOf(merchant),
    secret_keys: keys.map((key) => ({
      livemode: key.livemode,
      last_four: key.lastFour,
      created_at: isoOrNull(key.createdAt),
      expires_at: isoOrNull(key.expiresAt),
    })),
  };
}

export function describeActivation(activation: ActivationView): string[] {
  const { details } = activation;
  return [
    `Activation: ${activation.status}` +
      (activation.approved_at ? `, approved ${activation.approved_at}` : '') +
      (activation.requested_at ? `, requested ${activation.requested_at}` : ''),
    ...(details === null
      ? []
      : [
          `  Legal name: ${details.legal_name}`,
          `  Registration number: ${details.registration_number}`,
          `  Contact: ${details.contact_name}, ${details.contact_email}, ${details.contact_phone}`,
        ]),
  ];
}

export function describeMerchant(view: MerchantView): string {
  const keys = view.secret_keys.map(
    (key) =>
      `  ${key.livemode ? 'live' : 'test'}: …${key.last_four} (since ${key.created_at ?? '?'}` +
      `${key.expires_at === null ? '' : `, replaced, works until ${key.expires_at}`})`,
  );
  return [
    `Merchant ${view.merchant_id}: ${view.name}`,
    `Live mode: ${view.live_enabled ? 'enabled' : 'disabled'}`,
    ...describeActivation(view.activation),
    'Secret keys:',
    ...(keys.length > 0 ? keys : ['  none']),
  ].join('\n');
}
