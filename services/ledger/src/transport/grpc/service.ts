import type { ledgerV1 } from '@sika/contracts';
import { unaryHandler } from '@sika/platform';
import type { GetBalance } from '../../app/get-balance';
import type { ListBalanceTransactions } from '../../app/list-balance-transactions';
import type { SummarizeCollections } from '../../app/summarize-collections';
import type { AuditBooks } from '../../app/audit-books';
import type { GetRefundsPayable } from '../../app/get-refunds-payable';
import type { ReservePayout } from '../../app/reserve-payout';
import type { ListPayableBalances } from '../../app/list-payable-balances';
import type { PostAdjustment } from '../../app/post-adjustment';
import { CURRENCY } from '../../domain/balance-transaction';
import { adjustmentToProto, balanceTransactionToProto, scopeFromProto, typeFilterFromProto } from './mapping';

export interface LedgerUseCases {
  getBalance: GetBalance;
  listBalanceTransactions: ListBalanceTransactions;
  summarizeCollections: SummarizeCollections;
  getRefundsPayable: GetRefundsPayable;
  auditBooks: AuditBooks;
  reservePayout: ReservePayout;
  listPayableBalances: ListPayableBalances;
  postAdjustment: PostAdjustment;
}

export function ledgerGrpcService(useCases: LedgerUseCases): ledgerV1.LedgerServiceServer {
  return {
    getRefundsPayable: unaryHandler(async (request: ledgerV1.GetRefundsPayableRequest) => ({
      amount: await useCases.getRefundsPayable.execute(request.livemode),
    })),

    auditBooks: unaryHandler(async (request: ledgerV1.AuditBooksRequest) => {
      const audit = await useCases.auditBooks.execute(request.livemode);
      return {
        unbalancedTransactions: audit.unbalancedTransactions,
        merchantsOutOfBalance: audit.merchantsOutOfBalance,
        creditedPayments: audit.creditedPayments,
        refundsPayable: audit.refundsPayable,
        payouts: audit.payouts,
        pendingPayouts: audit.pendingPayouts,
        balanceMismatches: audit.balanceMismatches,
        adjustmentCount: audit.adjustmentCount,
        adjustmentTotal: audit.adjustmentTotal,
        unmatchedAdjustments: audit.unmatchedAdjustments,
      };
    }),

    reservePayout: unaryHandler(async (request: ledgerV1.ReservePayoutRequest) => {
      const movement = await useCases.reservePayout.execute(
        scopeFromProto(request.scope),
        request.payoutId,
        request.amount,
      );
      return { balanceTransaction: balanceTransactionToProto(movement) };
    }),

    listPayableBalances: unaryHandler(async (request: ledgerV1.ListPayableBalancesRequest) => {
      const page = await useCases.listPayableBalances.execute({
        livemode: request.livemode,
        limit: request.limit,
        ...(request.startingAfter !== undefined && { startingAfter: request.startingAfter }),
      });
      return { balances: page.items, hasMore: page.hasMore };
    }),

    getBalance: unaryHandler(async (request: ledgerV1.GetBalanceRequest) => {
      const scope = scopeFromProto(request.scope);
      const balance = await useCases.getBalance.execute(scope);
      return {
        balance: {
          available: balance.available,
          pendingPayout: balance.pendingPayout,
          currency: CURRENCY,
          livemode: scope.livemode,
        },
      };
    }),

    listBalanceTransactions: unaryHandler(async (request: ledgerV1.ListBalanceTransactionsRequest) => {
      const type = typeFilterFromProto(request.type);
      const page = await useCases.listBalanceTransactions.execute({
        scope: scopeFromProto(request.scope),
        limit: request.page?.limit ?? 0,
        ...(request.page?.startingAfter !== undefined && { startingAfter: request.page.startingAfter }),
        ...(type && { type }),
        ...(request.createdFrom && { createdFrom: request.createdFrom }),
        ...(request.createdTo && { createdTo: request.createdTo }),
      });
      return { balanceTransactions: page.items.map(balanceTransactionToProto), hasMore: page.hasMore };
    }),

    postAdjustment: unaryHandler(async (request: ledgerV1.PostAdjustmentRequest) => {
      const { adjustment, movement, created } = await useCases.postAdjustment.execute(
        scopeFromProto(request.scope),
        {
          amount: request.amount,
          reason: request.reason,
          idempotencyKey: request.idempotencyKey,
          requestedBy: request.requestedBy,
        },
      );
      return {
        adjustment: adjustmentToProto(adjustment),
        balanceTransaction: balanceTransactionToProto(movement),
        created,
      };
    }),

    summarizeCollections: unaryHandler(async (request: ledgerV1.SummarizeCollectionsRequest) => {
      const days = await useCases.summarizeCollections.execute(scopeFromProto(request.scope), {
        ...(request.from && { from: request.from }),
        ...(request.to && { to: request.to }),
      });
      return { days };
    }),
  };
}
