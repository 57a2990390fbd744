import { AppError, isId } from '@sika/platform';
import { z } from 'zod';

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

/** Code points, not UTF-16 units: "Café Ébène" counts what a person sees. Control characters are refused. */
const merchantName = z
  .string()
  .trim()
  .refine((name) => name.length > 0, 'must not be empty')
  .refine(
    (name) => Array.from(name).length <= MERCHANT_NAME_MAX_LENGTH,
    `must be at most ${MERCHANT_NAME_MAX_LENGTH} characters`,
  )
  // eslint-disable-next-line no-control-regex -- the point is to match control characters
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

const merchantId = z.string().refine((id) => isId('mer', id), "must be a merchant id ('mer_…')");

export const createMerchantRequest = z.object({ name: merchantName });
export const renewSecretKeyRequest = z.object({ merchantId, livemode: z.boolean() });
export const getMerchantRequest = z.object({ merchantId });
