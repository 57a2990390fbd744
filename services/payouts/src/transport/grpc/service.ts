import type { payoutsV1 } from '@sika/contracts';
import { unaryHandler } from '@sika/platform';
import type { AuditPayouts } from '../../app/audit-payouts';
import type { ConfirmPayoutAccount } from '../../app/confirm-payout-account';
import type { CreatePayout } from '../../app/create-payout';
import type { FindPayoutStatuses } from '../../app/find-payout-statuses';
import type { GetPayout } from '../../app/get-payout';
import type { GetPayoutAccount } from '../../app/get-payout-account';
import type { ListPayouts } from '../../app/list-payouts';
import type { SetPayoutAccount } from '../../app/set-payout-account';
import type { SetPayoutSchedule } from '../../app/set-payout-schedule';
import { payoutAccountToProto, payoutToProto, SCHEDULE, statusToProto } from '../../infra/payout-proto';
import { createCommandOf, listCommandOf, scheduleOf, scopeOf } from './mapping';

export interface PayoutsUseCases {
  createPayout: CreatePayout;
  getPayout: GetPayout;
  listPayouts: ListPayouts;
  setPayoutAccount: SetPayoutAccount;
  confirmPayoutAccount: ConfirmPayoutAccount;
  getPayoutAccount: GetPayoutAccount;
  setPayoutSchedule: SetPayoutSchedule;
  auditPayouts: AuditPayouts;
  findPayoutStatuses: FindPayoutStatuses;
}

/** sika.payouts.v1.PayoutsService: parse, call the use case, map the result back. */
export function payoutsGrpcService(useCases: PayoutsUseCases): payoutsV1.PayoutsServiceServer {
  return {
    createPayout: unaryHandler(async (request: payoutsV1.CreatePayoutRequest) => ({
      payout: payoutToProto(await useCases.createPayout.execute(createCommandOf(request))),
    })),
    getPayout: unaryHandler(async (request: payoutsV1.GetPayoutRequest) => ({
      payout: payoutToProto(await useCases.getPayout.execute(scopeOf(request.scope), request.payoutId)),
    })),
    listPayouts: unaryHandler(async (request: payoutsV1.ListPayoutsRequest) => {
      const page = await useCases.listPayouts.execute(listCommandOf(request));
      return { payouts: page.payouts.map(payoutToProto), hasMore: page.hasMore };
    }),
    setPayoutAccount: unaryHandler(async (request: payoutsV1.SetPayoutAccountRequest) => ({
      account: payoutAccountToProto(
        await useCases.setPayoutAccount.execute(scopeOf(request.scope), request.alias),
      ),
    })),
    confirmPayoutAccount: unaryHandler(async (request: payoutsV1.ConfirmPayoutAccountRequest) => ({
      account: payoutAccountToProto(
        await useCases.confirmPayoutAccount.execute(scopeOf(request.scope), request.holderName),
      ),
    })),
    getPayoutAccount: unaryHandler(async (request: payoutsV1.GetPayoutAccountRequest) => {
      const { account, schedule } = await useCases.getPayoutAccount.execute(scopeOf(request.scope));
      return { ...(account && { account: payoutAccountToProto(account) }), schedule: SCHEDULE[schedule] };
    }),
    setPayoutSchedule: unaryHandler(async (request: payoutsV1.SetPayoutScheduleRequest) => ({
      schedule:
        SCHEDULE[
          await useCases.setPayoutSchedule.execute(scopeOf(request.scope), scheduleOf(request.schedule))
        ],
    })),
    auditPayouts: unaryHandler(async (request: payoutsV1.AuditPayoutsRequest) => {
      const audit = await useCases.auditPayouts.execute(request.livemode);
      return {
        pending: audit.pending,
        settled: audit.settled.map((payout) => ({ ...payout, status: statusToProto(payout.status) })),
      };
    }),
    findPayoutStatuses: unaryHandler(async (request: payoutsV1.FindPayoutStatusesRequest) => ({
      payouts: await useCases.findPayoutStatuses.execute(request.payoutIds),
    })),
  };
}
