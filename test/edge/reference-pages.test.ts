// The reference pages as HTTP answers (the browser suite drives them): the lifecycle notice of each status,
// the page's security headers, its files, and the redirect to the trailing slash its relative links need.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, send } from '../helpers/http.js';
import { HEAD, releaseOf } from '../helpers/calendar.js';
import { AFTER_V1_SUNSET, CALENDAR, DURING_DEPRECATION, DURING_V1_ONLY, type Stack, V1_SUNSET, startStack } from '../helpers/stack.js';

/** A date as the pages print it. */
const day = (d: Date) => d.toISOString().slice(0, 10);
const V2_RELEASE = day(releaseOf(CALENDAR, 2));

const notice = (html: string) => /<p class="dlgw-banner (\w+)"[^>]*>(.*?)<\/p>/.exec(html)?.slice(1) ?? null;

describe('the reference pages', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      now: DURING_DEPRECATION,
      config: {
        lifecycle: {
          ...CALENDAR,
          versions: [{ ...CALENDAR.versions[0]!, migrationGuide: 'https://example.com/guide?a=1&b="x"<y>' }, ...CALENDAR.versions.slice(1)],
        },
      },
    });
  });
  afterAll(() => stack.close());
  const page = async (path: string) => {
    const res = await fetch(`${stack.url}${path}`, { redirect: 'manual' });
    return { res, html: await res.text() };
  };

  it('say nothing above a current version\'s reference', async () => {
    const { res, html } = await page(`/${HEAD}/`);
    expect(res.status).toBe(200);
    expect(notice(html)).toBeNull();
    expect(html).toContain('data-spec="json/"');
  });

  it('give a deprecated version\'s deprecation and sunset dates, and its migration guide, safely quoted', async () => {
    const { html } = await page('/1/');
    const [status, text] = notice(html)!;
    expect(status).toBe('deprecated');
    expect(text).toContain(`deprecated since ${V2_RELEASE}`);
    expect(text).toContain(`switched off on ${day(V1_SUNSET)} (sunset)`);
    // The config normalises the URL (quotes and brackets percent-encoded); the page quotes what is left.
    expect(text).toContain('href="https://example.com/guide?a=1&amp;b=%22x%22%3Cy%3E"');
  });

  it('say that a version past its sunset answers 410, and that an unreleased one is refused until its date', async () => {
    stack.setNow(AFTER_V1_SUNSET);
    expect(notice((await page('/1/')).html)?.[1]).toContain(`switched off on ${day(V1_SUNSET)} (sunset): calls at this version answer 410`);
    stack.setNow(DURING_V1_ONLY);
    expect(notice((await page('/2/')).html)?.[1]).toContain(`not released yet: it will be from ${V2_RELEASE}`);
    expect(notice((await page('/1/')).html)).toBeNull();
    // /latest/ follows the calendar: before v2's release it is v1's page.
    expect((await page('/latest/')).html).toContain('<title>DataLens public API, version 1 (latest)</title>');
    stack.setNow(DURING_DEPRECATION);
  });

  it('forbid every script, style and connection that is not the gateway\'s own', async () => {
    const { res } = await page(`/${HEAD}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('serve their own files, and nothing else from that folder', async () => {
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['start.js', 'text/javascript; charset=utf-8'],
      ['page.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ] as const) {
      const res = await fetch(`${stack.url}/_reference/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(type);
      expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(100);
    }
    // Text files go compressed to clients that take gzip (fetch does, and decompresses).
    const bundle = await send(stack.url, { method: 'GET', path: '/_reference/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip' } });
    expect(bundle.headers['content-encoding']).toBe('gzip');
    expect(Number(bundle.headers['content-length'])).toBeLessThan(1_000_000);
    const plain = await send(stack.url, { method: 'GET', path: '/_reference/swagger-ui-bundle.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(1_000_000);
    for (const path of ['/_reference/package.json', '/_reference/index.html', '/_reference/..%2fpackage.json', '/_reference/swagger-ui-bundle.js.map']) {
      expectProblem(await send(stack.url, { method: 'GET', path }), 404, 'ENDPOINT_NOT_FOUND');
    }
  });

  it('redirect /<v> and /latest to the trailing slash, and know no page for an unknown version', async () => {
    for (const [path, location] of [
      ['/1', '/1/'],
      ['/latest', '/latest/'],
    ]) {
      const { res } = await page(path!);
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe(location);
    }
    expectProblem(await send(stack.url, { method: 'GET', path: `/${HEAD + 1}/` }), 404, 'ENDPOINT_NOT_FOUND');
    expectProblem(await send(stack.url, { method: 'GET', path: '/0/' }), 404, 'ENDPOINT_NOT_FOUND');
  });
});
