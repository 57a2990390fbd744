import { pspV1 } from '@sika/contracts';
import { unaryHandler } from '@sika/platform';

import type { SendPaymentRequest } from '../../app/send-payment-request';

/** gRPC PspConnectorService: proto in, use case, proto out. */
export function pspConnectorService(useCases: {
  sendPaymentRequest: SendPaymentRequest;
}): pspV1.PspConnectorServiceServer {
  return {
    sendPaymentRequest: unaryHandler(async (request: pspV1.SendPaymentRequestRequest) => {
      const result = await useCases.sendPaymentRequest.execute({
        livemode: request.livemode,
        txId: request.txId,
        payerAlias: request.payerAlias,
        amount: request.amount,
        reason: request.reason,
        reference: request.reference,
      });
      return result.outcome === 'SENT'
        ? { outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT }
        : {
            outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_REJECTED,
            reasonCode: result.reasonCode,
          };
    }),
  };
}
