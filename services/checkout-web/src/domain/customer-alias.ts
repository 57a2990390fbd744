import { parseCustomerAlias } from '@sika/rules';

export type AliasFormatProblem = 'alias_missing' | 'alias_invalid';

export type AliasCheck = { ok: true; alias: string } | { ok: false; problem: AliasFormatProblem };

/**
 * The contract's alias rule (@sika/rules), checked before asking payments so that the customer gets the
 * precise message at once; payments applies the same rule again and normalises. Surrounding spaces are
 * dropped here already: pasted numbers often carry them and they mean nothing.
 */
export function checkCustomerAlias(raw: string): AliasCheck {
  const parsed = parseCustomerAlias(raw);
  if (parsed.ok) return { ok: true, alias: raw.trim() };
  return { ok: false, problem: parsed.problem === 'missing' ? 'alias_missing' : 'alias_invalid' };
}
