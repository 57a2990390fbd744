/**
 * The most creations one PaymentsService.CreatePayments call may carry: payments refuses a larger call whole, and
 * the gateway never sends one. 32 creations of the largest the public API accepts (about 48 KB each in
 * protobuf: 20 metadata entries of 40 + 500 four-byte characters, two URLs of 2,048 characters) and their
 * payments stay under half of gRPC's 4 MiB message limit.
 */
export const MAX_PAYMENT_CREATIONS_PER_CALL = 32;
