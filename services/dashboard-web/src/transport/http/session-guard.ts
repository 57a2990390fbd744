import { sendHtml } from '@sika/web';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { CurrentSession } from '../../app/current-session';
import type { GetMerchant } from '../../app/get-merchant';
import { livemodeOf, otherMode, type Mode } from '../../domain/mode';
import { sectionPath } from '../../views/layout';
import { renderLiveLocked } from '../../views/merchant-pages';
import { pageContext, sessionTokenOf, type CookieSettings } from './request-context';
import type { Signed } from './signed';

export interface SessionUseCases {
  currentSession: CurrentSession;
  getMerchant: GetMerchant;
}

/**
 * Only the activation request opens before live does: a live payout account's registration asks the participant
 * bank for the holder's name, which must wait for an operator's check of the business (anyone can sign up).
 */
const OPEN_BEFORE_LIVE = /^\/activate\/?$/;

/**
 * Before every page of a mode: the sign-in page without a session, the locked page for live before live is
 * enabled, and otherwise the signed-in context (signedOf) for the page.
 */
export function sessionGuard(mode: Mode, useCases: SessionUseCases, cookies: CookieSettings): RequestHandler {
  const livemode = livemodeOf(mode);
  return async (request: Request, response: Response, next: NextFunction) => {
    const sessionToken = sessionTokenOf(request, cookies);
    const session = await useCases.currentSession.execute(sessionToken);
    if (sessionToken === undefined || session === undefined) return response.redirect(303, '/signin');
    const { user, recentlyAuthenticated } = session;
    const merchant = await useCases.getMerchant.execute(user.merchantId);
    const page = pageContext(request, response);
    const signed: Signed = {
      scope: { merchantId: user.merchantId, livemode },
      user,
      sessionToken,
      recentlyAuthenticated,
      context: (section) => ({
        ...page,
        merchantName: merchant.name,
        mode,
        liveEnabled: merchant.liveEnabled,
        otherModeHref: `/${otherMode(mode)}${sectionPath(section)}`,
        section,
      }),
    };
    response.locals['signed'] = signed;
    if (livemode && !merchant.liveEnabled && !OPEN_BEFORE_LIVE.test(request.path)) {
      return sendHtml(
        response,
        request.method === 'GET' ? 200 : 403,
        renderLiveLocked(signed.context('overview')),
      );
    }
    next();
  };
}
