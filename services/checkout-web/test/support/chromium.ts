import { existsSync } from 'node:fs';

import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** The Debian package (`apt-get install -y chromium`): playwright-core never downloads a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless Chromium for the page tests. Playwright gives every launch a fresh temporary profile
 * (`--user-data-dir` in a new mkdtemp folder, removed on close); it refuses the flag among `args`.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install it with \`apt-get install -y chromium\``);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
