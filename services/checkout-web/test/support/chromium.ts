import { existsSync } from 'node:fs';

import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/**
 * Headless Chromium for the page tests (these and test-e2e's): the Debian package (`apt-get install -y
 * chromium`) or the one CHROMIUM_PATH names, as playwright-core never downloads a browser. Playwright gives
 * every launch a fresh temporary profile (`--user-data-dir` in a new mkdtemp folder, removed on close); it
 * refuses the flag among `args`.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} is missing: install it with \`apt-get install -y chromium\``);
  }
  return chromium.launch({
    executablePath,
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
