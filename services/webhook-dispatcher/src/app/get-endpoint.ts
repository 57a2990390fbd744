import { AppError } from '@sika/platform';
import type { Scope } from '../domain/scope';
import type { Endpoint, EndpointRepository } from './ports';

export function getEndpoint({ repository }: { repository: EndpointRepository }) {
  return async (scope: Scope): Promise<Endpoint> => {
    const endpoint = await repository.find(scope);
    if (endpoint === undefined) {
      throw new AppError('resource_missing', 'No webhook endpoint is registered for this merchant and mode.');
    }
    return endpoint;
  };
}

export type GetEndpoint = ReturnType<typeof getEndpoint>;
