import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

import { REPOSITORY_ROOT } from './environment';

export const DASHBOARD_URL = 'http://127.0.0.1:8083';

/** Where each page's screenshot is kept: a test artifact CI can upload, and the README's pictures' source. */
export const SCREENSHOT_DIRECTORY = path.join(REPOSITORY_ROOT, 'test-e2e', 'artifacts', 'dashboard');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core on the page as it is: the serious and critical violations (an empty list is the goal). Evaluated
 * through the DevTools protocol, which the page's CSP does not govern, so the CSP stays on while it runs.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** A full-page screenshot named after the step, and axe's verdict on the same page. */
export async function capture(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `${name}.png`), fullPage: true });
  expect({ page: name, violations: await accessibilityViolations(page) }).toEqual({
    page: name,
    violations: [],
  });
}
