import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import { AppError, createLogger } from '@sika/platform';
import express from 'express';

import { htmlErrors, LIMITED_RETRY_AFTER_SECONDS } from './html-errors';
import { cookieNames, requestContext } from './request-context';

/** A page whose service refused with `code`, shown by the dashboard's one error handler. */
function appRefusing(code: 'rate_limited' | 'service_unavailable' | 'parameter_invalid'): express.Express {
  const app = express();
  app.use(requestContext({ secure: false, names: cookieNames(false) }));
  app.get('/page', () => {
    throw new AppError(code, 'refused');
  });
  app.use(htmlErrors(createLogger({ service: 'dashboard-web-test', level: 'silent' })));
  return app;
}

async function answerOf(app: express.Express): Promise<Response> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/page`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('error pages', () => {
  it("answers a service's limit 429 with Retry-After, as every overload answer must", async () => {
    const answer = await answerOf(appRefusing('rate_limited'));
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe(String(LIMITED_RETRY_AFTER_SECONDS));
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers an unavailable service 503 with Retry-After, and a refusal without it', async () => {
    expect((await answerOf(appRefusing('service_unavailable'))).headers.get('retry-after')).toBe('5');
    const refused = await answerOf(appRefusing('parameter_invalid'));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('retry-after')).toBeNull();
  });
});
