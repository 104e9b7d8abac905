// The lifecycle headers belong to the gateway: on a deprecated version the backend's Deprecation and Sunset
// never replace the gateway's, and a backend Link keeps its other relations beside the gateway's
// rel="deprecation"; on the current version the backend's pass. The 410 answers of a sunset version and of
// a brownout carry the version and its lifecycle headers, and a brownout window's 410 says when to retry.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarLines } from '../../src/cli/calendar-table.js';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { expectProblem } from '../helpers/http.js';
import { HEAD, deprecationSfDate } from '../helpers/calendar.js';
import { AFTER_V1_SUNSET, CALENDAR, DURING_DEPRECATION, type Stack, V1_SUNSET, rpc, startStack } from '../helpers/stack.js';

const GATEWAY_DEPRECATION = deprecationSfDate(CALENDAR, 1); // v2's release
const GATEWAY_SUNSET = V1_SUNSET.toUTCString();
/** The migration guide, then the next version's reference page as the successor. */
const GATEWAY_LINK = '<https://example.com/migrate-v1-to-v2>; rel="deprecation"; type="text/html", </2/>; rel="successor-version"';
const BACKEND_LINK = '<https://backend.example/rpc/getReport?page=2>; rel="next"';
const BACKEND_HEADERS = {
  deprecation: '@1',
  sunset: 'Thu, 01 Jan 1970 00:00:00 GMT',
  link: `${BACKEND_LINK}, <https://backend.example/old>; rel="deprecation", <https://backend.example/v9>; rel="successor-version"`,
};
const REPORT = JSON.stringify({ id: 'rep_l', workbookId: 'wb_demo_sales', config: {}, description: '', version: 1, legacyKey: 'a/b' });

describe('a backend that sends its own Deprecation, Sunset and Link', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('slow', { body: REPORT, headers: BACKEND_HEADERS });
    stack = await startStack({ upstreamUrl: upstream.url, now: DURING_DEPRECATION });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  for (const [label, method, body] of [
    ['a buffered (translated) v1 answer', 'getReport', { reportId: 'rep_l' }],
    ['a streamed v1 answer', 'deleteReport', { reportId: 'rep_l' }],
  ] as const) {
    it(`${label}: the gateway's Deprecation and Sunset, the backend's rel="next" kept beside the gateway's rel="deprecation" and rel="successor-version"`, async () => {
      const res = await rpc(stack.url, method, body, '1');
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBe(GATEWAY_DEPRECATION);
      expect(res.headers.get('sunset')).toBe(GATEWAY_SUNSET);
      expect(res.headers.get('link')).toBe(`${BACKEND_LINK}, ${GATEWAY_LINK}`);
      expect(res.headers.get('x-dl-api-version')).toBe('1');
    });
  }

  it('on the current version the backend\'s own Deprecation, Sunset and Link pass unchanged', async () => {
    const res = await rpc(stack.url, 'getReport', { reportId: 'rep_l' }, String(HEAD));
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe(BACKEND_HEADERS.deprecation);
    expect(res.headers.get('sunset')).toBe(BACKEND_HEADERS.sunset);
    expect(res.headers.get('link')).toBe(BACKEND_HEADERS.link);
  });
});

describe('410 answers', () => {
  let stack: Stack;
  const windowStart = new Date('2026-11-22T10:00:00Z');
  const windowEnd = new Date('2026-11-22T14:00:00Z');
  beforeAll(async () => {
    const versions = [{ ...CALENDAR.versions[0]!, brownouts: [{ start: windowStart.toISOString(), end: windowEnd.toISOString() }] }, ...CALENDAR.versions.slice(1)];
    stack = await startStack({ config: { lifecycle: { ...CALENDAR, versions } } });
  });
  afterAll(() => stack.close());

  it('a sunset version\'s 410 names the version to move to and the guide, with its version and lifecycle headers', async () => {
    stack.setNow(AFTER_V1_SUNSET);
    const res = await rpc(stack.url, 'getReport', { reportId: 'x' }, '1');
    expectProblem(res, 410, 'API_VERSION_SUNSET');
    expect(res.body.detail).toContain(`use version ${HEAD}`);
    expect(res.body.detail).toContain('https://example.com/migrate-v1-to-v2');
    expect(res.body.details).toMatchObject({ version: 1, latest: HEAD, migrationGuide: 'https://example.com/migrate-v1-to-v2' });
    expect(res.headers.get('x-dl-api-version')).toBe('1');
    expect(res.headers.get('deprecation')).toBe(GATEWAY_DEPRECATION);
    expect(res.headers.get('sunset')).toBe(GATEWAY_SUNSET);
    expect(res.headers.get('link')).toBe(GATEWAY_LINK);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('a brownout window\'s 410 carries the lifecycle headers and Retry-After until the window ends', async () => {
    const now = new Date(windowEnd.getTime() - 90_500);
    stack.setNow(now);
    const res = await rpc(stack.url, 'getReport', { reportId: 'x' }, '1');
    expectProblem(res, 410, 'API_VERSION_SUNSET');
    expect(res.body.details).toMatchObject({ version: 1, brownout: true, brownoutEnds: windowEnd.toISOString() });
    expect(res.headers.get('retry-after')).toBe('91');
    expect(res.headers.get('x-dl-api-version')).toBe('1');
    expect(res.headers.get('deprecation')).toBe(GATEWAY_DEPRECATION);
    expect(res.headers.get('sunset')).toBe(GATEWAY_SUNSET);
    expect(res.headers.get('link')).toBe(GATEWAY_LINK);
  });

  it('GET /versions and the calendar lines (check-config, start-up log) list the brownouts', async () => {
    stack.setNow(DURING_DEPRECATION);
    const body = (await (await fetch(`${stack.url}/versions`)).json()) as { versions: { brownouts: unknown; brownoutShare: number }[] };
    expect(body.versions[0]).toMatchObject({ brownouts: [{ start: windowStart.toISOString(), end: windowEnd.toISOString() }], brownoutShare: 0 });
    expect(body.versions[1]).toMatchObject({ brownouts: [], brownoutShare: 0 });
    const lines = calendarLines(stack.gateway.runtime().calendar, DURING_DEPRECATION);
    expect(lines).toContain('v1 brownouts: 2026-11-22T10:00:00Z to 2026-11-22T14:00:00Z');
  });
});
