import { join } from 'node:path';

import express from 'express';
import type { RequestHandler } from 'express';

/** services/checkout-web/public, from src/transport/http (tests) and dist/transport/http (built) alike. */
const PUBLIC_DIRECTORY = join(__dirname, '..', '..', '..', 'public');

/** The stylesheet and the live-status script: static files, so the CSP needs no inline exception. */
export function assetsHandler(): RequestHandler {
  return express.static(PUBLIC_DIRECTORY, {
    index: false,
    dotfiles: 'ignore',
    maxAge: '5m',
    setHeaders: (response) => response.setHeader('X-Content-Type-Options', 'nosniff'),
  });
}
