import { unaryHandler } from '@sika/platform';
import { merchantsV1 } from '@sika/contracts';

import type { ApproveActivation } from '../../app/approve-activation';
import type { CancelEmail } from '../../app/cancel-email';
import type { ListEmails } from '../../app/list-emails';
import type { RecordEmail } from '../../app/record-email';
import type { AuthenticateKey } from '../../app/authenticate-key';
import type { CreateMerchant } from '../../app/create-merchant';
import type { GetMerchant } from '../../app/get-merchant';
import type { ListSecretKeys } from '../../app/list-secret-keys';
import type { MerchantRecord } from '../../app/ports';
import type { RenewSecretKey } from '../../app/renew-secret-key';
import type { RequestActivation } from '../../app/request-activation';
import { activationStatusOf, type ActivationStatus } from '../../domain/activation';
import { cancelEmailRequest, listEmailsRequest, recordEmailRequest, toProtoEmail } from './emails';
import {
  createMerchantRequest,
  merchantIdRequest,
  parseRequest,
  renewSecretKeyRequest,
  requestActivationRequest,
} from './mapping';

export interface MerchantsUseCases {
  createMerchant: CreateMerchant;
  renewSecretKey: RenewSecretKey;
  authenticateKey: AuthenticateKey;
  getMerchant: GetMerchant;
  listSecretKeys: ListSecretKeys;
  requestActivation: RequestActivation;
  approveActivation: ApproveActivation;
  recordEmail: RecordEmail;
  cancelEmail: CancelEmail;
  listEmails: ListEmails;
}

const ACTIVATION_STATUSES: Record<ActivationStatus, merchantsV1.ActivationStatus> = {
  not_requested: merchantsV1.ActivationStatus.ACTIVATION_STATUS_NOT_REQUESTED,
  pending_review: merchantsV1.ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
  approved: merchantsV1.ActivationStatus.ACTIVATION_STATUS_APPROVED,
};

function toProtoActivation({ activation }: MerchantRecord): merchantsV1.Activation {
  return {
    status: ACTIVATION_STATUSES[activationStatusOf(activation)],
    legalName: activation?.details.legalName ?? '',
    registrationNumber: activation?.details.registrationNumber ?? '',
    contactName: activation?.details.contactName ?? '',
    contactEmail: activation?.details.contactEmail ?? '',
    contactPhone: activation?.details.contactPhone ?? '',
    requestedAt: activation?.requestedAt,
    approvedAt: activation?.approvedAt ?? undefined,
  };
}

function toProtoMerchant(merchant: MerchantRecord): merchantsV1.Merchant {
  return {
    id: merchant.id,
    name: merchant.name,
    feeRule: { rateBps: merchant.feeRule.rateBps, fixedAmount: merchant.feeRule.fixedAmount },
    liveEnabled: merchant.liveEnabled,
    createdAt: merchant.createdAt,
    activation: toProtoActivation(merchant),
  };
}

/** sika.merchants.v1.MerchantsService: parse, call the use case, map. */
export function merchantsGrpcService(useCases: MerchantsUseCases): merchantsV1.MerchantsServiceServer {
  return {
    createMerchant: unaryHandler(async (request: merchantsV1.CreateMerchantRequest) => {
      const { merchant, testSecretKey } = await useCases.createMerchant.execute(
        parseRequest(createMerchantRequest, request),
      );
      return { merchant: toProtoMerchant(merchant), testSecretKey };
    }),
    renewSecretKey: unaryHandler(async (request: merchantsV1.RenewSecretKeyRequest) =>
      useCases.renewSecretKey.execute(parseRequest(renewSecretKeyRequest, request)),
    ),
    listSecretKeys: unaryHandler(async (request: merchantsV1.ListSecretKeysRequest) => ({
      keys: await useCases.listSecretKeys.execute(parseRequest(merchantIdRequest, request)),
    })),
    requestActivation: unaryHandler(async (request: merchantsV1.RequestActivationRequest) => ({
      merchant: toProtoMerchant(
        await useCases.requestActivation.execute(parseRequest(requestActivationRequest, request)),
      ),
    })),
    approveActivation: unaryHandler(async (request: merchantsV1.ApproveActivationRequest) => ({
      merchant: toProtoMerchant(
        await useCases.approveActivation.execute(parseRequest(merchantIdRequest, request)),
      ),
    })),
    // Not validated by zod: any malformed key is the caller's api_key_invalid, decided by the use case.
    authenticateKey: unaryHandler(async (request: merchantsV1.AuthenticateKeyRequest) =>
      useCases.authenticateKey.execute({ secretKey: request.secretKey }),
    ),
    getMerchant: unaryHandler(async (request: merchantsV1.GetMerchantRequest) => ({
      merchant: toProtoMerchant(await useCases.getMerchant.execute(parseRequest(merchantIdRequest, request))),
    })),
    recordEmail: unaryHandler(async (request: merchantsV1.RecordEmailRequest) =>
      useCases.recordEmail.execute(parseRequest(recordEmailRequest, request)),
    ),
    cancelEmail: unaryHandler(async (request: merchantsV1.CancelEmailRequest) => {
      await useCases.cancelEmail.execute(parseRequest(cancelEmailRequest, request));
      return {};
    }),
    listEmails: unaryHandler(async (request: merchantsV1.ListEmailsRequest) => ({
      emails: (await useCases.listEmails.execute(parseRequest(listEmailsRequest, request))).map(toProtoEmail),
    })),
  };
}
