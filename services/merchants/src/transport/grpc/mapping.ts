import { AppError, isId } from '@sika/platform';
import { z } from 'zod';

import { activationDetailsSchema } from '../../domain/activation';
import { singleLineText } from '../../domain/text';

/** `merchantId` → `merchant_id`: errors name the field as the .proto file spells it. */
function protoFieldName(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => String(segment).replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
    .join('.');
}

/** Parses a gRPC request with `schema`; the first problem becomes parameter_invalid naming the field. */
export function parseRequest<S extends z.ZodType>(schema: S, request: unknown): z.output<S> {
  const result = schema.safeParse(request);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const param = protoFieldName(issue?.path ?? []);
  throw new AppError('parameter_invalid', `Invalid ${param}: ${issue?.message ?? 'invalid value'}`, {
    param,
  });
}

export const MERCHANT_NAME_MAX_LENGTH = 100;

const merchantName = singleLineText(MERCHANT_NAME_MAX_LENGTH);

const merchantId = z.string().refine((id) => isId('mer', id), "must be a merchant id ('mer_…')");

export const createMerchantRequest = z.object({ name: merchantName });
export const renewSecretKeyRequest = z.object({
  merchantId,
  livemode: z.boolean(),
  expirePreviousAfterSeconds: z.number().optional(),
  notifyEmail: z.email().max(254).optional(),
});
/** GetMerchant, ListSecretKeys and ApproveActivation: the merchant id alone. */
export const merchantIdRequest = z.object({ merchantId });
/** merchant_id first, so a wrong id is what an error names before any detail. */
export const requestActivationRequest = z.object({ merchantId, ...activationDetailsSchema.shape });
