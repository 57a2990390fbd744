/**
 * The most creations one PaymentsService.CreatePayments call may carry: payments refuses a larger call whole, and
 * the gateway never sends one.
 */
export const MAX_PAYMENT_CREATIONS_PER_CALL = 100;
