import { MAX_PAYMENT_CREATIONS_PER_CALL, type paymentsV1 } from '@sika/contracts';
import { AppError, settleEach, unaryHandler, type Logger } from '@sika/platform';
import type { AuditPayments } from '../../app/audit-payments';
import type { FindSucceededPayments } from '../../app/find-succeeded-payments';
import type { CancelPayment } from '../../app/cancel-payment';
import type { CreatePayment } from '../../app/create-payment';
import type { ExpirePaymentNow } from '../../app/expire-payment-now';
import type { GetPayment } from '../../app/get-payment';
import type { ListPayments } from '../../app/list-payments';
import type { StartAttempt } from '../../app/start-attempt';
import { toProtoPayment } from '../../infra/payment-proto';
import { cancelCommandOf, createCommandOf, listQueryOf, scopeOf } from './mapping';

export interface PaymentsUseCases {
  createPayment: CreatePayment;
  getPayment: GetPayment;
  listPayments: ListPayments;
  cancelPayment: CancelPayment;
  expirePaymentNow: ExpirePaymentNow;
  startAttempt: StartAttempt;
  auditPayments: AuditPayments;
  findSucceededPayments: FindSucceededPayments;
}

/** sika.payments.v1.PaymentsService: parse, call the use case, map the payment back. */
export function paymentsGrpcService(
  useCases: PaymentsUseCases,
  logger: Logger,
): paymentsV1.PaymentsServiceServer {
  const createOne = async (request: paymentsV1.CreatePaymentRequest) =>
    toProtoPayment(await useCases.createPayment.execute(createCommandOf(request)));
  return {
    createPayments: unaryHandler(async ({ creations }: paymentsV1.CreatePaymentsRequest) => {
      if (creations.length > MAX_PAYMENT_CREATIONS_PER_CALL) {
        throw new AppError(
          'parameter_invalid',
          `A call creates at most ${MAX_PAYMENT_CREATIONS_PER_CALL} payments.`,
          { param: 'creations' },
        );
      }
      const outcomes = await settleEach(creations, {
        requestIdOf: (creation) => creation.requestId,
        run: async ({ request }) => {
          if (request === undefined) {
            throw new AppError('parameter_missing', 'A creation has no request.', { param: 'request' });
          }
          return createOne(request);
        },
        logger,
      });
      return {
        outcomes: outcomes.map((outcome) => ('value' in outcome ? { payment: outcome.value } : outcome)),
      };
    }),
    // Deprecated: for the previous release's gateways during a rolling upgrade (see payments.proto).
    createPayment: unaryHandler(async (request: paymentsV1.CreatePaymentRequest) => ({
      payment: await createOne(request),
    })),
    getPayment: unaryHandler(async (request: paymentsV1.GetPaymentRequest) => ({
      payment: toProtoPayment(await useCases.getPayment.inScope(scopeOf(request.scope), request.paymentId)),
    })),
    listPayments: unaryHandler(async (request: paymentsV1.ListPaymentsRequest) => {
      const page = await useCases.listPayments.execute(listQueryOf(request));
      return { payments: page.payments.map(toProtoPayment), hasMore: page.hasMore };
    }),
    cancelPayment: unaryHandler(async (request: paymentsV1.CancelPaymentRequest) => ({
      payment: toProtoPayment(await useCases.cancelPayment.execute(cancelCommandOf(request))),
    })),
    expirePayment: unaryHandler(async (request: paymentsV1.ExpirePaymentRequest) => ({
      payment: toProtoPayment(
        await useCases.expirePaymentNow.execute(scopeOf(request.scope), request.paymentId),
      ),
    })),
    getCheckoutPayment: unaryHandler(async (request: paymentsV1.GetCheckoutPaymentRequest) => ({
      payment: toProtoPayment(await useCases.getPayment.forCheckout(request.paymentId)),
    })),
    auditPayments: unaryHandler(async (request: paymentsV1.AuditPaymentsRequest) => {
      const audit = await useCases.auditPayments.execute(request.livemode);
      return {
        succeededPaymentIds: audit.succeededPaymentIds,
        paymentEventMessageIds: audit.paymentEventMessageIds,
        owedRefunds: audit.owedRefunds.map(({ refundStatus, endToEndId, ...refund }) => ({
          ...refund,
          ...(endToEndId !== null && { endToEndId }),
          ...(refundStatus !== null && { refundStatus }),
        })),
      };
    }),
    findSucceededPayments: unaryHandler(async (request: paymentsV1.FindSucceededPaymentsRequest) => ({
      paymentIds: await useCases.findSucceededPayments.execute(request.paymentIds),
    })),
    startAttempt: unaryHandler(async (request: paymentsV1.StartAttemptRequest) => ({
      payment: toProtoPayment(await useCases.startAttempt.execute(request.paymentId, request.customerAlias)),
    })),
  };
}
