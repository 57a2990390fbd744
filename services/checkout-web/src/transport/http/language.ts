import { chooseLanguage } from '@sika/web';
import type { Request, Response } from 'express';

import { LANGUAGE_PARAM } from '../../views/checkout-pages';
import { COPIES, LANGUAGES, type Copy } from '../../views/copy';

/** Remembers the customer's choice for the pages that follow (the waiting screen reloads itself). */
const LANGUAGE_COOKIE = 'sika_checkout_lang';

/** The words of the page for this request (see chooseLanguage: `?lang=`, cookie, Accept-Language, French). */
export function copyFor(request: Request, response: Response): Copy {
  return COPIES[
    chooseLanguage(request, response, {
      languages: LANGUAGES,
      param: LANGUAGE_PARAM,
      cookie: LANGUAGE_COOKIE,
    })
  ];
}
