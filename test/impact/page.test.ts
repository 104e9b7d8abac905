// The admin's impact page in a real browser (Debian's chromium, driven by playwright-core): the calendar as a
// timeline with today's line, and the clients by version with the changes that affect them; it loads nothing
// but itself. A screenshot is kept in test-artifacts/ (git-ignored).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { ROOT, configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

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
    await expect(acme.locator('li[data-at="2"]').first().textContent()).resolves.toContain('createReport key');
    const modern = page.locator(`#clients tr[data-client="org:modern"][data-version="${HEAD}"]`);
    await expect(modern.textContent()).resolves.toContain('nothing it uses changes');
    await expect(page.locator('#store').textContent()).resolves.toContain('this process only');

    expect(requested.every((u) => u.startsWith(serving.adminUrl!))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
