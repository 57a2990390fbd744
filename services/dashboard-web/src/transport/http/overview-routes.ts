import { sendHtml } from '@sika/web';
import type { Router } from 'express';

import type { ShowOverview } from '../../app/show-overview';
import { renderOverview } from '../../views/merchant-pages';
import { signedOf } from './signed';

export interface OverviewUseCases {
  showOverview: ShowOverview;
}

/** The overview, the mode's home page, on the router of one mode (already signed in and unlocked). */
export function overviewRoutes(router: Router, useCases: OverviewUseCases, apiBaseUrl: string): void {
  router.get('/', async (_request, response) => {
    const { scope, context } = signedOf(response);
    sendHtml(
      response,
      200,
      renderOverview(context('overview'), await useCases.showOverview.execute(scope), apiBaseUrl),
    );
  });
}
