import { ID_PREFIXES, isId } from '@sika/platform/pure';

/**
 * Whether a path segment can be a payment id at all. Anything else is answered "not found" without asking
 * payments, so random or hostile paths cost no gRPC call.
 */
export function isPaymentId(value: string): boolean {
  return isId(ID_PREFIXES.payment, value);
}
