export { attemptStatus, balanceTransactionType, paymentMode, paymentStatus, payoutStatus } from './enums';
export { toJsonAmount } from './json';
export { AttemptSchema, PaymentSchema, renderAttempt, renderPayment } from './payment';
export type { PublicAttempt, PublicPayment } from './payment';
export { BalanceSchema, BalanceTransactionSchema, renderBalance, renderBalanceTransaction } from './balance';
export type { PublicBalance, PublicBalanceTransaction } from './balance';
export { listSchema, renderList } from './list';
export {
  EVENT_TYPES,
  EventSchema,
  isEventType,
  renderEvent,
  TEST_EVENT_MESSAGE,
  TEST_EVENT_TYPE,
  WebhookTestSchema,
} from './event';
export type { EventType, PublicEvent } from './event';
export { PayoutDestinationSchema, PayoutSchema, renderPayout } from './payout';
export type { PublicPayout } from './payout';
