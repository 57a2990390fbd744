import express, { type RequestHandler } from 'express';

/**
 * The stylesheets and scripts of the pages, files of `directory`: static, so the CSP needs no inline exception.
 * No directory index, no dotfiles, cached for five minutes, never sniffed for another type.
 */
export function staticAssets(directory: string): RequestHandler {
  return express.static(directory, {
    index: false,
    dotfiles: 'ignore',
    maxAge: '5m',
    setHeaders: (response) => response.setHeader('X-Content-Type-Options', 'nosniff'),
  });
}
