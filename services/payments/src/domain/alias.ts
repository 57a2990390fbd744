import { AppError } from '@sika/platform/pure';
import { ALIAS_PROBLEM_MESSAGES, parseCustomerAlias } from '@sika/rules';

export interface PayerAlias {
  /** Canonical form sent to the scheme: `+225 0700000001` for a phone number, the identifier as entered. */
  value: string;
  /** What may be shown and logged: `+225 07******01`. */
  masked: string;
}

/**
 * The contract's alias rule (@sika/rules), as the gateway and the hosted page apply it: one customer typing
 * `+225 07.00.00.00.01` or `+2250700000001` is the same payer.
 */
export function parsePayerAlias(raw: string, param = 'customer_alias'): PayerAlias {
  const parsed = parseCustomerAlias(raw);
  if (!parsed.ok) throw new AppError('parameter_invalid', ALIAS_PROBLEM_MESSAGES[parsed.problem], { param });
  return { value: parsed.alias.value, masked: parsed.alias.masked };
}
