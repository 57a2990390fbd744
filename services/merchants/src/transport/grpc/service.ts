import { unaryHandler } from '@sika/platform';
import type { merchantsV1 } from '@sika/contracts';

import type { AuthenticateKey } from '../../app/authenticate-key';
import type { CreateMerchant } from '../../app/create-merchant';
import type { GetMerchant } from '../../app/get-merchant';
import type { MerchantRecord } from '../../app/ports';
import type { RenewSecretKey } from '../../app/renew-secret-key';
import { createMerchantRequest, getMerchantRequest, parseRequest, renewSecretKeyRequest } from './mapping';

export interface MerchantsUseCases {
  createMerchant: CreateMerchant;
  renewSecretKey: RenewSecretKey;
  authenticateKey: AuthenticateKey;
  getMerchant: GetMerchant;
}

function toProtoMerchant(merchant: MerchantRecord): merchantsV1.Merchant {
  return {
    id: merchant.id,
    name: merchant.name,
    feeRule: { rateBps: merchant.feeRule.rateBps, fixedAmount: merchant.feeRule.fixedAmount },
    liveEnabled: merchant.liveEnabled,
    createdAt: merchant.createdAt,
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
    // Not validated by zod: any malformed key is the caller's api_key_invalid, decided by the use case.
    authenticateKey: unaryHandler(async (request: merchantsV1.AuthenticateKeyRequest) =>
      useCases.authenticateKey.execute({ secretKey: request.secretKey }),
    ),
    getMerchant: unaryHandler(async (request: merchantsV1.GetMerchantRequest) => ({
      merchant: toProtoMerchant(
        await useCases.getMerchant.execute(parseRequest(getMerchantRequest, request)),
      ),
    })),
  };
}
