// Headless Chromium (Debian's package) driven by playwright-core, for the browser tests.
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;
// CI installs Chromium first (.ci/run) and sets RANKSCOPE_REQUIRE_BROWSER: there, a missing
// browser is a failure, never a quietly skipped suite.
if (missing && process.env.RANKSCOPE_REQUIRE_BROWSER === '1') {
  throw new Error(`browser tests required (RANKSCOPE_REQUIRE_BROWSER=1) but ${missing}`);
}
/** Why browser tests cannot run here (on a developer's machine without Chromium), or false. */
export const noBrowser: string | false = missing;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium keeps trying to reach Google's hosts.
    args: [
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

export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png`, fullPage });
}
