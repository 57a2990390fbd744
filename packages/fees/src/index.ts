export { assertValidFeeRule, computeFee, DEFAULT_FEE_RULE, isValidFeeRule, MAX_RATE_BPS } from './fee';
export type { FeeRule, FeeSplit } from './fee';
