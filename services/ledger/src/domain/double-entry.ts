import type { AccountRef } from './accounts';

/** A signed amount on one account. */
export interface Posting {
  account: AccountRef;
  amount: bigint;
}

/**
 * The double-entry rule, checked before anything is written (the database checks it again): at least two
 * postings, none of them zero, summing to zero. A violation is a bug in the caller, not a bad request.
 */
export function assertBalanced(postings: readonly Posting[]): void {
  if (postings.length < 2) throw new Error(`a ledger transaction needs two postings, got ${postings.length}`);
  if (postings.some((posting) => posting.amount === 0n)) throw new Error('a posting cannot be zero');
  const total = postings.reduce((sum, posting) => sum + posting.amount, 0n);
  if (total !== 0n) throw new Error(`the postings of a ledger transaction sum to ${total}, not 0`);
}
