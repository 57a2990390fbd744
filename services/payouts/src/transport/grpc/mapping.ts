import { payoutsV1, type commonV1 } from '@sika/contracts';
import { AppError } from '@sika/platform';
import { checkIdempotencyKey, type PayoutSchedule } from '@sika/rules';
import type { CreatePayoutCommand } from '../../app/create-payout';
import type { ListPayoutsCommand } from '../../app/list-payouts';
import type { Scope } from '../../app/ports';
import { SCHEDULE, statusToProto } from '../../infra/payout-proto';

/** Parsing of the gRPC requests into commands: proto3 defaults (0, '') become "not given". */

export function scopeOf(scope: commonV1.Scope | undefined): Scope {
  if (scope === undefined || scope.merchantId === '') {
    throw new AppError('parameter_missing', 'The request has no merchant scope.', { param: 'scope' });
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

export function createCommandOf(request: payoutsV1.CreatePayoutRequest): CreatePayoutCommand {
  checkIdempotencyKey(request.idempotencyKey);
  if (request.amount !== undefined && request.amount < 1n) {
    throw new AppError('parameter_invalid', 'amount must be an integer of at least 1.', { param: 'amount' });
  }
  return {
    scope: scopeOf(request.scope),
    idempotencyKey: request.idempotencyKey,
    requestFingerprint: request.requestFingerprint,
    amount: request.amount,
  };
}

const STATUS_FILTERS = new Map(
  (['pending', 'paid', 'failed'] as const).map((status) => [statusToProto(status), status]),
);

export function listCommandOf(request: payoutsV1.ListPayoutsRequest): ListPayoutsCommand {
  let status: ListPayoutsCommand['status'];
  if (request.status !== payoutsV1.PayoutStatus.PAYOUT_STATUS_UNSPECIFIED) {
    status = STATUS_FILTERS.get(request.status);
    if (!status)
      throw new AppError('parameter_invalid', 'status is not a payout status.', { param: 'status' });
  }
  return {
    scope: scopeOf(request.scope),
    limit: request.page?.limit ?? 0,
    ...(request.page?.startingAfter !== undefined && { startingAfter: request.page.startingAfter }),
    ...(status && { status }),
    ...(request.createdFrom && { createdFrom: request.createdFrom }),
    ...(request.createdTo && { createdTo: request.createdTo }),
  };
}

const SCHEDULE_FROM_PROTO = new Map(
  Object.entries(SCHEDULE).map(([schedule, proto]) => [proto, schedule as PayoutSchedule]),
);

export function scheduleOf(schedule: payoutsV1.PayoutSchedule): PayoutSchedule {
  const known = SCHEDULE_FROM_PROTO.get(schedule);
  if (!known)
    throw new AppError('parameter_invalid', 'schedule must be daily or manual.', { param: 'schedule' });
  return known;
}
