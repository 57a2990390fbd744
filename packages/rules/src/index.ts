export * from './attempt';
export * from './alias';
export * from './expiry';
export * from './text';
export * from './tx-id';
export * from './payout';
export * from './payment-status';
export * from './fingerprint';
