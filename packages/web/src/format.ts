/** U+202F NARROW NO-BREAK SPACE: the French thousands separator, which never breaks a number in two. */
const THOUSANDS_SEPARATOR = '\u202f';
/** U+00A0 NO-BREAK SPACE: keeps the unit on the same line as the number. */
const UNIT_SEPARATOR = '\u00a0';

/**
 * An XOF amount as written in the UEMOA: `10 000 FCFA`. Whole francs only (XOF has no decimals); done by
 * hand on the bigint so no precision is lost and the output does not depend on the ICU data of the runtime.
 */
export function formatXof(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const digits = (amount < 0n ? -amount : amount).toString();
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return `${sign}${groups.join(THOUSANDS_SEPARATOR)}${UNIT_SEPARATOR}FCFA`;
}
