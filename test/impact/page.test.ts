// The admin's impact page in a real browser (Debian's chromium, driven by playwright-core): the calendar as a
// timeline with today's line, and the clients by version with the changes that affect them, each change once, code
// as code, dates unbroken, a past sunset "N days ago"; it loads nothing but itself. Screenshots are kept in
// test-artifacts/ (git-ignored).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderImpactPage } from '../../src/admin/impact-page.js';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { ROOT, configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';
import { SENT, expectedChanges, sampleReport } from './sample-report.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts');
// CI installs chromium (.ci/run); elsewhere the suite runs when it is there.
const available = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!available)('the impact page in a browser', { timeout: 60_000 }, () => {
  let backend: ReferenceBackend;
  let serving: Serving;
  let profile: string;
  let browser: BrowserContext;

  beforeAll(async () => {
    backend = createReferenceBackend({ seed: DEMO_SEED });
    const backendUrl = await backend.listen(0, '127.0.0.1');
    const path = join(tempDir('dlgw-impact-page-'), 'gateway.yaml');
    writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl })));
    serving = await serve({ configPath: path, logger: memoryLog('silent').logger, watch: false });
    const acme = { 'x-dl-org-id': 'acme' };
    expect((await rpc(serving.url, 'createReport', { key: 'reports/marketing/page', config: {} }, '1', acme)).status).toBe(200);
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, String(HEAD), { 'x-dl-org-id': 'modern' })).status).toBe(200);
    profile = mkdtempSync(join(tmpdir(), 'dlgw-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 900 },
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await serving?.stop();
    await backend?.close();
  });

  it('shows the timeline and the clients by version with what affects them, loading nothing else', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    const res = await page.goto(`${serving.adminUrl}/impact.html`);
    expect(res?.status()).toBe(200);
    await page.screenshot({ path: join(ARTIFACTS, 'impact-page.png'), fullPage: true });

    // One timeline row per version, each with its status; today's line is drawn.
    const rows = page.locator('.timeline .row');
    expect(await rows.count()).toBe(VERSIONS.length);
    await expect(page.locator(`.timeline .row[data-version="1"]`).getAttribute('data-status')).resolves.toBe('deprecated');
    await expect(page.locator(`.timeline .row[data-version="${HEAD}"]`).getAttribute('data-status')).resolves.toBe('current');
    expect(await page.locator('.timeline .today').count()).toBe(1);
    const v1Bar = await page.locator('.timeline .row[data-version="1"] .seg.deprecated').boundingBox();
    expect(v1Bar?.width).toBeGreaterThan(0);

    // The v1 client, with v2's change of `key` that its createReport calls meet.
    const acme = page.locator('#clients tr[data-client="org:acme"][data-version="1"]');
    await expect(acme.textContent()).resolves.toContain('createReport (1)');
    await expect(acme.locator('li[data-at="2"]').first().textContent()).resolves.toContain('createReport (sends key, answer, 1 call)');
    const modern = page.locator(`#clients tr[data-client="org:modern"][data-version="${HEAD}"]`);
    await expect(modern.textContent()).resolves.toContain('nothing it uses changes');
    await expect(page.locator('#store').textContent()).resolves.toContain('this process only');

    expect(requested.every((u) => u.startsWith(serving.adminUrl!))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
  it('reads well for a client past its sunset: each change once, code as code, dates on one line, "28 days ago", "1 call"', async () => {
    // A narrow window, so that the table's cells wrap: a date must still never break at its hyphens.
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.setContent(renderImpactPage(sampleReport()));
    await page.screenshot({ path: join(ARTIFACTS, 'impact-page-sunset.png'), fullPage: true });
    // Runs in the page: typed loosely, as the project's TypeScript has no DOM library.
    const seen = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const row = doc.querySelector('#clients tr[data-client="org:dashboards"]');
      const css = (el: any) => doc.defaultView.getComputedStyle(el);
      return {
        changes: [...row.querySelectorAll('li.change')].map((li: any) => li.textContent as string),
        codes: [...row.querySelectorAll('li.change code')].map((c: any) => [c.textContent, css(c).fontFamily] as [string, string]),
        sunset: row.children[2].textContent as string,
        rowText: row.textContent as string,
        // Each date: its white-space, the lines it is drawn on (an inline box broken across lines has several rects).
        dates: [...doc.querySelectorAll('time.date')].map((t: any) => ({ text: t.textContent, nowrap: css(t).whiteSpace, lines: t.getClientRects().length })),
        wrapped: [...doc.querySelectorAll('.dates, #clients td')].some((el: any) => el.getClientRects()[0].height > 30),
      };
    });

    // One line per change, each change once; the methods it touches named once in it.
    const expected = [...expectedChanges()];
    expect(seen.changes).toHaveLength(expected.length);
    for (const description of expected) {
      const plain = description.replace(/`/g, '');
      expect(seen.changes.filter((t) => t.includes(plain))).toHaveLength(1);
    }
    const moved = seen.changes.find((t) => t.includes('data.description moves'))!;
    expect(moved).toContain(`Touches getDashboard (answer, 3 calls); updateDashboard (sends ${SENT}, answer, 2 calls).`);
    // Markdown code is drawn as code, in a monospace font; no backtick is left in the text.
    expect(seen.rowText).not.toContain('`');
    expect(seen.codes).toContainEqual([SENT, expect.stringMatching(/monospace/)]);
    expect(seen.codes.map(([text]) => text)).toContain('data.description');
    // Dates never break; the cells did wrap, so this was put to the test.
    expect(seen.wrapped).toBe(true);
    expect(seen.dates.length).toBeGreaterThan(5);
    for (const d of seen.dates) expect(d).toEqual({ text: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), nowrap: 'nowrap', lines: 1 });
    // A past sunset in words, and counts in the right number.
    expect(seen.sunset).toMatch(/^\d{4}-\d{2}-\d{2} \(28 days ago\)$/);
    expect(seen.rowText).not.toMatch(/\b1 calls\b|-\d+ days/);
    await expect(page.locator('#store').textContent()).resolves.toContain('0 clients, 0 field entries');
    await page.close();
  });
});
