// Every /rpc answer, errors included, lists the versions a client may use (api-supported-versions, and
// api-deprecated-versions while any exist); a deprecated version's answers link its successor's reference page.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { expectProblem } from '../helpers/http.js';
import { AFTER_V1_SUNSET, AFTER_V1_SUPPORTED, DURING_DEPRECATION, DURING_V1_ONLY, type Stack, rpc, startStack } from '../helpers/stack.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';

/** At DURING_DEPRECATION every version but the head is deprecated and still served. */
const OLDER = VERSIONS.filter((v) => v !== HEAD).join(', ');
const SUCCESSOR_OF_1 = '</2/>; rel="successor-version"';

function expectLists(headers: Headers, supported: string, deprecated: string | null) {
  expect(headers.get('api-supported-versions')).toBe(supported);
  expect(headers.get('api-deprecated-versions')).toBe(deprecated);
}

describe('the version lists on every /rpc answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ now: DURING_DEPRECATION, config: { limits: { bodyBytes: 1024 } } });
  });
  afterAll(() => stack.close());

  it('a success at the head: the lists, and no successor link', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, String(HEAD));
    expect(res.status).toBe(200);
    expectLists(res.headers, String(HEAD), OLDER);
    expect(res.headers.get('link')).toBeNull();
  });

  it('a translated answer at v1: the lists and a Link to version 2, whose reference page is there', async () => {
    stack.setNow(DURING_DEPRECATION);
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/lists', config: {} }, '1');
    expect(created.status).toBe(200);
    const res = await rpc(stack.url, 'getReport', { reportId: created.body.id }, '1');
    expect(res.status).toBe(200);
    expectLists(res.headers, String(HEAD), OLDER);
    expect(res.headers.get('link')).toContain(SUCCESSOR_OF_1);
    expect((await fetch(new URL('/2/', stack.url))).status).toBe(200);
  });

  it('a 400 without a version header', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getEntries', {}, null);
    expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
    expectLists(res.headers, String(HEAD), OLDER);
  });

  it('a 404 for a path under /rpc that names no method', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await fetch(`${stack.url}/rpc/no-such/thing`, { method: 'POST', headers: { 'x-dl-api-version': String(HEAD) } });
    expect(res.status).toBe(404);
    expectLists(res.headers, String(HEAD), OLDER);
  });

  it('a 409 for an object saved under a newer version, with the successor link', async () => {
    stack.setNow(DURING_DEPRECATION);
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/newer', config: {} }, '1');
    const edit = await fetch(`${stack.backendUrl}/rpc/updateReport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
      // Moved out of the workbook its v1 key names: version 1 cannot read it whole (docs/reference/object-versions.md).
      body: JSON.stringify({ reportId: created.body.id, [REPORT_DESCRIPTION]: 'edited at the head', workbookId: 'wb_demo_sales' }),
    });
    expect(edit.status).toBe(200);
    const res = await rpc(stack.url, 'getReport', { reportId: created.body.id }, '1');
    expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
    expectLists(res.headers, String(HEAD), OLDER);
    expect(res.headers.get('link')).toContain(SUCCESSOR_OF_1);
  });

  it('a 413 for a body over the limit', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getEntries', { filter: 'x'.repeat(4096) }, String(HEAD));
    expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    expectLists(res.headers, String(HEAD), OLDER);
  });

  it('a 410 after v1\'s sunset: v1 is in neither list, and the answer still links v1\'s successor', async () => {
    stack.setNow(AFTER_V1_SUNSET);
    const res = await rpc(stack.url, 'getEntries', {}, '1');
    expectProblem(res, 410, 'API_VERSION_SUNSET');
    const deprecated = AFTER_V1_SUPPORTED.filter((v) => v !== HEAD);
    expectLists(res.headers, String(HEAD), deprecated.length ? deprecated.join(', ') : null);
    expect(res.headers.get('link')).toContain(SUCCESSOR_OF_1);
  });

  it('before any deprecation: only the supported list', async () => {
    stack.setNow(DURING_V1_ONLY);
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(200);
    expectLists(res.headers, '1', null);
    expect(res.headers.get('link')).toBeNull();
  });
});

describe('the version lists on a 502, and under a routes prefix', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('refuse');
    stack = await startStack({ upstreamUrl: upstream.url, now: DURING_DEPRECATION, config: { routes: { prefix: '/_gw' } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('the backend is unreachable: 502 with the lists, and v1 links its successor under the prefix', async () => {
    const res = await rpc(stack.url, 'getEntries', {}, '1');
    expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
    expectLists(res.headers, String(HEAD), OLDER);
    expect(res.headers.get('link')).toContain('</_gw/2/>; rel="successor-version"');
  });
});
