import { systemClock } from '@sika/platform';

import { configSchema } from './config';
import { buildOpenApiDocument } from './transport/http/openapi/document';
import { createRequestSchemas } from './transport/http/request-schemas';

/**
 * Prints the OpenAPI document this code serves at /v1/openapi.json, with the configuration's defaults (its
 * rate limits are a deployment's; its operations and schemas are the code's). The SDK (packages/node)
 * generates its types from it at build time: `node dist/print-openapi.js > openapi.json`.
 */
const limits = configSchema
  .pick({
    RATE_LIMIT_TEST: true,
    RATE_LIMIT_LIVE: true,
    RATE_LIMIT_WINDOW: true,
    AUTH_FAILURE_LIMIT: true,
    AUTH_FAILURE_WINDOW: true,
  })
  .parse({});

const document = buildOpenApiDocument({
  schemas: createRequestSchemas(systemClock),
  rateLimits: {
    test: { limit: limits.RATE_LIMIT_TEST, windowMs: limits.RATE_LIMIT_WINDOW },
    live: { limit: limits.RATE_LIMIT_LIVE, windowMs: limits.RATE_LIMIT_WINDOW },
  },
  authFailureLimit: { limit: limits.AUTH_FAILURE_LIMIT, windowMs: limits.AUTH_FAILURE_WINDOW },
});
process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
