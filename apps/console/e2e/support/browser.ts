import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO } from './server';

export const RESULTS = resolve(REPO, 'test-results', 'console');

/** Debian's chromium (installed by scripts/install-chromium.sh), or CHROMIUM_PATH. Playwright's own browser download does not work here. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!path || !existsSync(path)) throw new Error('Chromium not found: run `bash scripts/install-chromium.sh` (apt-get install chromium) or set CHROMIUM_PATH');
  return path;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function newContext(browser: Browser, baseURL: string, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  context.setDefaultTimeout(Number(process.env.E2E_TIMEOUT_MS ?? 15_000));
  return context;
}

/** A full-page screenshot in test-results/console/<name>.png (kept by CI as an artifact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: resolve(RESULTS, `${name}.png`), fullPage: true });
}

/** axe-core on the current page: the violations of impact serious or critical (should be none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
