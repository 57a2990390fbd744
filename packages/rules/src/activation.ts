/** Where a merchant stands on the way to live mode; `not_requested` is the absence of an activation. */
export type ActivationStatus = 'not_requested' | 'pending_review' | 'approved';

/**
 * What a merchant submits to use live mode, for an operator to review (as Stripe reviews accounts): the
 * merchants service checks and keeps it, the dashboard collects and shows it.
 */
export interface ActivationDetails {
  legalName: string;
  registrationNumber: string;
  contactName: string;
  contactEmail: string;
  /** `+`, country code and number, without separators. */
  contactPhone: string;
}
