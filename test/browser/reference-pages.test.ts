// The API reference pages in a real browser (Debian's chromium, driven by playwright-core): each version's page
// shows getEntries with that version's arguments, "Try it out" calls the running gateway and gets a 200, a
// deprecated version's page says when it is switched off, a sunset version's page shows every operation retired,
// and nothing is loaded from anywhere but the gateway.
// Screenshots of each page (its top, and getEntries after Try it out) are kept in test-artifacts/ (git-ignored).

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/serve-process.js';
import { HEAD, releaseOf } from '../helpers/calendar.js';
import { AFTER_V1_SUNSET, CALENDAR, DURING_DEPRECATION, type Stack, V1_SUNSET, startStack } from '../helpers/stack.js';

/** A date as the pages print it. */
const day = (d: Date) => d.toISOString().slice(0, 10);

const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'test-artifacts');
// npm run test:all installs chromium (CI runs it); elsewhere the suite runs when it is there.
const available = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!available)('the API reference pages in a browser', { timeout: 60_000 }, () => {
  let stack: Stack;
  let profile: string;
  let browser: BrowserContext;
  /** Every URL the pages asked for, to prove they need nothing but the gateway. */
  const requested: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ now: DURING_DEPRECATION });
    profile = mkdtempSync(join(tmpdir(), 'dlgw-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
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
      viewport: { width: 1280, height: 1400 },
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await stack?.close();
  });

  async function open(path: string, shot = `reference${path.replace(/\//g, '-').replace(/-$/, '')}`): Promise<Page> {
    const page = await browser.newPage();
    page.on('request', (r) => requested.push(r.url()));
    page.on('pageerror', (e) => problems.push(`${path}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${path}: ${m.text()}`);
    });
    const res = await page.goto(`${stack.url}${path}`);
    expect(res?.status()).toBe(200);
    await page.locator('#operations-Entries-getEntries').waitFor();
    // The top of the page as a reader first sees it: the lifecycle notice, the title, the first method families.
    await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`) });
    return page;
  }

  /** Opens getEntries, returns its request body example, runs "Try it out" with `body` and returns the status shown. */
  async function tryGetEntries(page: Page, body: string): Promise<{ example: string; status: string }> {
    const operation = page.locator('#operations-Entries-getEntries');
    await operation.locator('.opblock-summary-control').click();
    const example = operation.locator('.body-param__example, .highlight-code').first();
    await example.waitFor();
    const exampleText = (await example.textContent()) ?? '';
    await operation.locator('button.try-out__btn').click();
    await operation.locator('textarea.body-param__text').fill(body);
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    // The request and its live answer, in the viewport.
    await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `reference-${new URL(page.url()).pathname.split('/').at(-2)}-try-it-out.png`) });
    return { example: exampleText, status: ((await status.textContent()) ?? '').trim() };
  }

  it('v1: shows the deprecation and sunset dates at the top, getEntries with `page`, and Try it out answers 200', async () => {
    const page = await open('/1/');
    const banner = page.locator('.dlgw-banner');
    await expect(banner.textContent()).resolves.toContain(`deprecated since ${day(releaseOf(CALENDAR, 2))}`);
    await expect(banner.textContent()).resolves.toContain(`switched off on ${day(V1_SUNSET)}`);
    await expect(banner.locator('a').getAttribute('href')).resolves.toBe('https://example.com/migrate-v1-to-v2');
    const { example, status } = await tryGetEntries(page, '{"page": 0, "pageSize": 2}');
    expect(example).toMatch(/"page"\s*:/);
    expect(example).not.toContain('pageToken');
    expect(status).toBe('200');
    // The call went through the gateway's v1 translation: the backend was asked as for a v1 client.
    const call = stack.backend?.requests.filter((r) => r.url === '/rpc/getEntries').at(-1);
    expect(call?.headers['x-dl-client-api-version']).toBe('1');
    await page.close();
  });

  it('a deprecated version keeps its operations legible: full opacity, a dark badge with white text, the path not struck', async () => {
    const page = await open('/1/');
    const operation = page.locator('#operations-Entries-getEntries');
    // Runs in the page: typed loosely, as the project's TypeScript has no DOM library.
    const style = await operation.evaluate((el: any) => {
      const css = (node: any) => el.ownerDocument.defaultView.getComputedStyle(node);
      const badge = el.querySelector('.opblock-summary-method');
      const path = el.querySelector('.opblock-summary-path__deprecated, .opblock-summary-path');
      return {
        deprecated: el.classList.contains('opblock-deprecated') as boolean,
        opacity: css(el).opacity as string,
        badge: [css(badge).backgroundColor as string, css(badge).color as string],
        strike: css(path).textDecorationLine as string,
      };
    });
    expect(style.deprecated).toBe(true);
    expect(style.opacity).toBe('1');
    expect(style.badge).toEqual(['rgb(92, 92, 92)', 'rgb(255, 255, 255)']);
    expect(style.strike).toBe('none');
    await page.close();
  });

  /** Each operation of the page as drawn: its block's background, its badge's colours, the mark after its path. */
  const operationLooks = (page: Page) =>
    // Runs in the page: typed loosely, as the project's TypeScript has no DOM library.
    page.evaluate(() => {
      const doc = (globalThis as any).document;
      const css = (node: any, pseudo?: string) => doc.defaultView.getComputedStyle(node, pseudo);
      return [...doc.querySelectorAll('.opblock')].map((el: any) => {
        const badge = el.querySelector('.opblock-summary-method');
        const path = el.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated');
        return {
          id: el.id as string,
          background: css(el).backgroundColor as string,
          badge: [css(badge).backgroundColor as string, css(badge).color as string],
          mark: css(path, '::after').content as string,
        };
      });
    });

  it('a version past its sunset shows every operation retired (grey block, grey badge, "retired: answers 410") under its 410 banner', async () => {
    stack.setNow(AFTER_V1_SUNSET);
    try {
      const page = await open('/1/', 'reference-1-sunset');
      const banner = page.locator('.dlgw-banner');
      await expect(banner.getAttribute('data-status')).resolves.toBe('sunset');
      await expect(banner.textContent()).resolves.toMatch(new RegExp(`switched off on ${day(V1_SUNSET)} \\(sunset\\): calls at this version answer 410\\. Every operation below is retired`));
      const looks = await operationLooks(page);
      expect(looks.length).toBeGreaterThan(10);
      const retired = { background: 'rgb(242, 242, 242)', badge: ['rgb(138, 138, 138)', 'rgb(255, 255, 255)'], mark: '"retired: answers 410"' };
      expect(looks.filter((l) => l.background !== retired.background || l.badge.join() !== retired.badge.join() || l.mark !== retired.mark)).toEqual([]);
      await page.close();
    } finally {
      stack.setNow(DURING_DEPRECATION);
    }
  });

  it('a version still served marks no operation retired, and keeps Swagger UI\'s green for POST', async () => {
    for (const path of ['/1/', `/${HEAD}/`]) {
      const page = await open(path);
      const looks = await operationLooks(page);
      expect(looks.length).toBeGreaterThan(10);
      expect(looks.filter((l) => l.mark !== 'none')).toEqual([]);
      if (path !== '/1/') expect(looks.every((l) => l.badge[0] === 'rgb(73, 204, 144)')).toBe(true);
      await page.close();
    }
  });

  it('the head: has no lifecycle notice, shows getEntries with `pageToken`, and Try it out answers 200', async () => {
    const page = await open(`/${HEAD}/`);
    expect(await page.locator('.dlgw-banner').count()).toBe(0);
    const { example, status } = await tryGetEntries(page, '{"pageSize": 2}');
    expect(example).toContain('"pageToken"');
    expect(example).not.toMatch(/"page"\s*:/);
    expect(status).toBe('200');
    await page.close();
  });

  it('/latest/ is the newest released version\'s page', async () => {
    const page = await open('/latest/');
    await expect(page.title()).resolves.toBe(`DataLens public API, version ${HEAD} (latest)`);
    await page.close();
  });

  it('works under a route prefix: the page finds its files and its document through relative links', async () => {
    const prefixed = await startStack({ now: DURING_DEPRECATION, config: { routes: { prefix: '/_gw' } } });
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    try {
      expect((await page.goto(`${prefixed.url}/_gw/2/`))?.status()).toBe(200);
      await page.locator('#operations-Entries-getEntries').waitFor();
      expect(asked.length).toBeGreaterThan(3);
      expect(asked.filter((path) => !path.startsWith('/_gw/'))).toEqual([]);
      expect(asked).toContain('/_gw/2/json/');
    } finally {
      await page.close();
      await prefixed.close();
    }
  });

  it('loaded nothing from anywhere but the gateway, and the pages raised no errors', () => {
    expect(requested.length).toBeGreaterThan(5);
    expect(requested.filter((url) => !url.startsWith(`${stack.url}/`))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
