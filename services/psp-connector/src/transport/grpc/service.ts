import { pspV1 } from '@sika/contracts';
import { unaryHandler } from '@sika/platform';

import type { LookupPayee } from '../../app/lookup-payee';
import type { SendPaymentRequest } from '../../app/send-payment-request';
import type { RequestOutcome } from '../../domain/payment-request';
import { meaningOfReason } from '../../domain/reason-codes';

const { PaymentRequestOutcome } = pspV1;

/** The scheme's answer, classified: payments learns what it means, and the code itself for operators. */
function toProto(result: RequestOutcome): pspV1.SendPaymentRequestResponse {
  if (result.outcome === 'SENT') return { outcome: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT };
  const outcome = {
    alias_unknown: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_ALIAS_UNKNOWN,
    failed: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_FAILED,
    declined: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_REJECTED,
    expired: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_REJECTED,
    already_answered: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_REJECTED,
  }[meaningOfReason(result.reasonCode)];
  return { outcome, reasonCode: result.reasonCode };
}

/** gRPC PspConnectorService: proto in, use case, proto out. */
export function pspConnectorService(useCases: {
  sendPaymentRequest: SendPaymentRequest;
  lookupPayee: LookupPayee;
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
        expiresAt: request.expiresAt,
        onDelivery: request.onDelivery,
      });
      return toProto(result);
    }),
    lookupPayee: unaryHandler(async (request: pspV1.LookupPayeeRequest) => {
      const lookup = await useCases.lookupPayee.execute(request.livemode, request.alias);
      return lookup.found
        ? {
            found: true,
            holderName: lookup.holderName,
            ...(lookup.holderCountry !== undefined && { holderCountry: lookup.holderCountry }),
          }
        : { found: false, ...(lookup.reasonCode !== undefined && { reasonCode: lookup.reasonCode }) };
    }),
  };
}
