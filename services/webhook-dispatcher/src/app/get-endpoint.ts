import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import type { Endpoint, EndpointRepository } from './ports';

export class GetEndpoint {
  constructor(private readonly deps: { repository: EndpointRepository }) {}

  async execute(scope: Scope): Promise<Endpoint> {
    const endpoint = await this.deps.repository.find(scope);
    if (endpoint === undefined) {
      throw new AppError('resource_missing', 'No webhook endpoint is registered for this merchant and mode.');
    }
    return endpoint;
  }
}
