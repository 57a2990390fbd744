import type { Metadata } from '@grpc/grpc-js';

import { isValidRequestId } from '../context';

/** Metadata key carrying the request id from one process to the next. */
export const REQUEST_ID_METADATA_KEY = 'x-request-id';

export function requestIdFromMetadata(metadata: Metadata): string | undefined {
  const [value] = metadata.get(REQUEST_ID_METADATA_KEY);
  return isValidRequestId(value) ? value : undefined;
}
