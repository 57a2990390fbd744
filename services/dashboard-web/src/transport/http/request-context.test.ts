import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';

import { cookieNames, CsrfRefused, requestContext } from './request-context';

/** The CSRF layer alone, in front of a route that answers 204 when it is reached. */
function appWithCsrf(): express.Express {
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(requestContext({ secure: false, names: cookieNames(false) }));
  app.post('/act', (_request, response) => void response.status(204).end());
  app.get('/form', (_request, response) => void response.status(200).end());
  app.use(
    (error: unknown, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
      response.status(error instanceof CsrfRefused ? 403 : 500).end();
    },
  );
  return app;
}

describe('CSRF protection of every form', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = appWithCsrf().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function tokenCookie(): Promise<{ cookie: string; token: string }> {
    const response = await fetch(`${base}/form`);
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith('sika_csrf='));
    if (setCookie === undefined) throw new Error('no CSRF cookie');
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = setCookie.split(';')[0] ?? '';
    return { cookie, token: cookie.slice('sika_csrf='.length) };
  }

  const post = (headers: Record<string, string>, body: Record<string, string>) =>
    fetch(`${base}/act`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
    });

  it('lets a form of this site through with its token', async () => {
    const { cookie, token } = await tokenCookie();
    expect((await post({ Cookie: cookie, Origin: base }, { _csrf: token })).status).toBe(204);
  });

  it('refuses a post without the token, with another token, or from another site', async () => {
    const { cookie, token } = await tokenCookie();
    const other = await tokenCookie();
    expect((await post({ Cookie: cookie, Origin: base }, {})).status).toBe(403);
    expect((await post({ Cookie: cookie, Origin: base }, { _csrf: other.token })).status).toBe(403);
    expect((await post({ Cookie: cookie, Origin: 'https://evil.example' }, { _csrf: token })).status).toBe(
      403,
    );
    expect((await post({ Cookie: cookie }, { _csrf: token })).status).toBe(403);
    expect((await post({ Origin: base }, { _csrf: token })).status).toBe(403);
  });

  it('uses __Host- cookies that are Secure outside local runs', () => {
    expect(cookieNames(true)).toMatchObject({ session: '__Host-sika_session', csrf: '__Host-sika_csrf' });
  });
});
