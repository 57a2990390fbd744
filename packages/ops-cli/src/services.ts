import { ledgerV1, merchantsV1, paymentsV1, payoutsV1, webhooksV1 } from '@sika/contracts';
import { payAtSimulator, SimulatorRefusal } from '@sika/pispi';
import { AppError, createGrpcClient, grpcFailureOf } from '@sika/platform';
import type { GrpcClient, GrpcTls } from '@sika/platform';
import type { Client } from '@grpc/grpc-js';

import type { ServiceAddresses } from './environment';

/** Generous for a person at a terminal, short enough for automation to notice a dead service. */
const DEADLINE_MS = 10_000;

/**
 * The largest answer the CLI reads. An audit's answers carry every id they check (each succeeded payment, each
 * payment event…, ≈ 30 bytes apiece): grpc-js refuses answers past 4 MiB by default, which payments' audit
 * passed at ≈ 76,000 paid payments (two events each). 1 GiB holds tens of millions of ids.
 */
const MAX_ANSWER_BYTES = 1024 * 1024 * 1024;

/** Why a service said no: Sika's error code (or the simulator's HTTP status), its message, the parameter. */
export interface CallFailure {
  code: string;
  message: string;
  param?: string | undefined;
}

/** A service refused or failed a call: exit status 1, with the code and message on stderr. */
export class ServiceCallError extends Error {
  override readonly name = 'ServiceCallError';

  constructor(
    readonly service: string,
    readonly address: string,
    readonly failure: CallFailure,
  ) {
    const param = failure.param === undefined ? '' : ` (param: ${failure.param})`;
    super(`${service} at ${address}: ${failure.code}: ${failure.message}${param}`);
  }
}

/** The calls the commands make, each failing with a ServiceCallError that names the service. */
export interface Services {
  createMerchant(request: merchantsV1.CreateMerchantRequest): Promise<merchantsV1.CreateMerchantResponse>;
  renewSecretKey(request: merchantsV1.RenewSecretKeyRequest): Promise<merchantsV1.RenewSecretKeyResponse>;
  getMerchant(merchantId: string): Promise<merchantsV1.Merchant>;
  listSecretKeys(merchantId: string): Promise<merchantsV1.SecretKeySummary[]>;
  approveActivation(merchantId: string): Promise<merchantsV1.Merchant>;
  listEmails(request: merchantsV1.ListEmailsRequest): Promise<merchantsV1.Email[]>;
  setEndpoint(request: webhooksV1.SetEndpointRequest): Promise<webhooksV1.SetEndpointResponse>;
  /** A payment by its id alone, as the hosted page reads it. */
  getPayment(paymentId: string): Promise<paymentsV1.Payment>;
  auditBooks(livemode: boolean): Promise<ledgerV1.AuditBooksResponse>;
  postAdjustment(request: ledgerV1.PostAdjustmentRequest): Promise<ledgerV1.PostAdjustmentResponse>;
  auditPayments(livemode: boolean): Promise<paymentsV1.AuditPaymentsResponse>;
  auditEvents(): Promise<webhooksV1.AuditEventsResponse>;
  auditPayouts(livemode: boolean): Promise<payoutsV1.AuditPayoutsResponse>;
  setPayoutAccount(request: payoutsV1.SetPayoutAccountRequest): Promise<payoutsV1.SetPayoutAccountResponse>;
  confirmPayoutAccount(
    request: payoutsV1.ConfirmPayoutAccountRequest,
  ): Promise<payoutsV1.ConfirmPayoutAccountResponse>;
  getPayoutAccount(request: payoutsV1.GetPayoutAccountRequest): Promise<payoutsV1.GetPayoutAccountResponse>;
  setPayoutSchedule(
    request: payoutsV1.SetPayoutScheduleRequest,
  ): Promise<payoutsV1.SetPayoutScheduleResponse>;
  /** Test mode's bank: the customer pays the request with this tx_id now (alias …04). */
  payAtSimulator(txId: string): Promise<{ statut: string }>;
  /** Closes the channels opened so far, so the process can exit. */
  close(): void;
}

/** One client, created on its first call: a command never connects to a service it does not need. */
function lazyClient<C extends Client>(
  service: string,
  address: string,
  create: () => GrpcClient<C>,
): { call<R>(use: (client: GrpcClient<C>) => Promise<R>): Promise<R>; close(): void } {
  let client: GrpcClient<C> | undefined;
  return {
    async call(use) {
      client ??= create();
      try {
        return await use(client);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new ServiceCallError(service, address, withGrpcFailure(error));
      }
    },
    close: () => client?.close(),
  };
}

/** A failure as the operator reads it: gRPC's own status and text after the message, when gRPC failed the call. */
function withGrpcFailure(error: AppError): CallFailure {
  const grpcFailure = grpcFailureOf(error);
  if (grpcFailure === undefined) return error;
  return { code: error.code, message: `${error.message} (${grpcFailure})`, param: error.param };
}

/** The merchant of an answer that always carries one (proto3 message fields are optional on the wire). */
function merchantOf(
  answer: { merchant?: merchantsV1.Merchant | undefined },
  rpc: string,
): merchantsV1.Merchant {
  if (answer.merchant === undefined) throw new Error(`merchants answered ${rpc} without a merchant`);
  return answer.merchant;
}

/** Every client presents the CLI's certificate, the identity the services allow for operator methods. */
export function connectServices(addresses: ServiceAddresses, tls: GrpcTls): Services {
  const options = {
    deadlineMs: DEADLINE_MS,
    tls,
    channelOptions: { 'grpc.max_receive_message_length': MAX_ANSWER_BYTES },
  };
  const merchants = lazyClient('merchants', addresses.merchants, () =>
    createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, options),
  );
  const webhooks = lazyClient('webhook-dispatcher', addresses.webhookDispatcher, () =>
    createGrpcClient(webhooksV1.WebhooksServiceClient, addresses.webhookDispatcher, options),
  );
  const payments = lazyClient('payments', addresses.payments, () =>
    createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, options),
  );
  const ledger = lazyClient('ledger', addresses.ledger, () =>
    createGrpcClient(ledgerV1.LedgerServiceClient, addresses.ledger, options),
  );
  const payouts = lazyClient('payouts', addresses.payouts, () =>
    createGrpcClient(payoutsV1.PayoutsServiceClient, addresses.payouts, options),
  );
  return {
    auditPayouts: (livemode) => payouts.call((client) => client.auditPayouts({ livemode })),
    setPayoutAccount: (request) => payouts.call((client) => client.setPayoutAccount(request)),
    confirmPayoutAccount: (request) => payouts.call((client) => client.confirmPayoutAccount(request)),
    getPayoutAccount: (request) => payouts.call((client) => client.getPayoutAccount(request)),
    setPayoutSchedule: (request) => payouts.call((client) => client.setPayoutSchedule(request)),
    auditBooks: (livemode) => ledger.call((client) => client.auditBooks({ livemode })),
    postAdjustment: (request) => ledger.call((client) => client.postAdjustment(request)),
    auditPayments: (livemode) => payments.call((client) => client.auditPayments({ livemode })),
    auditEvents: () => webhooks.call((client) => client.auditEvents({})),
    createMerchant: (request) => merchants.call((client) => client.createMerchant(request)),
    renewSecretKey: (request) => merchants.call((client) => client.renewSecretKey(request)),
    listEmails: async (request) => (await merchants.call((client) => client.listEmails(request))).emails,
    getMerchant: (merchantId) =>
      merchants.call(async (client) => merchantOf(await client.getMerchant({ merchantId }), 'GetMerchant')),
    listSecretKeys: (merchantId) =>
      merchants.call(async (client) => (await client.listSecretKeys({ merchantId })).keys),
    approveActivation: (merchantId) =>
      merchants.call(async (client) =>
        merchantOf(await client.approveActivation({ merchantId }), 'ApproveActivation'),
      ),
    setEndpoint: (request) => webhooks.call((client) => client.setEndpoint(request)),
    getPayment: (paymentId) =>
      payments.call(async (client) => {
        const { payment } = await client.getCheckoutPayment({ paymentId });
        if (payment === undefined) throw new Error('payments answered GetCheckoutPayment without a payment');
        return payment;
      }),
    payAtSimulator: async (txId) => {
      try {
        return await payAtSimulator(addresses.simulatorUrl, txId, DEADLINE_MS);
      } catch (error) {
        if (!(error instanceof SimulatorRefusal)) throw error;
        throw new ServiceCallError('pispi-simulator', addresses.simulatorUrl, {
          code: `http_${error.status}`,
          message: error.detail,
        });
      }
    },
    close: () => {
      merchants.close();
      webhooks.close();
      payments.close();
      ledger.close();
      payouts.close();
    },
  };
}
