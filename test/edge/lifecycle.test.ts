// The version calendar walked with the stack's clock: release, deprecation headers, sunset, /versions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS, contractCalendar, deprecationSfDate, releaseOf, sunsetOf } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import {
  AFTER_V1_SUNSET,
  CALENDAR,
  DURING_DEPRECATION,
  DURING_V1_ONLY,
  type Stack,
  V1_SUNSET,
  rpc,
  startStack,
} from '../helpers/stack.js';

const V2_RELEASE = releaseOf(CALENDAR, 2);
/** RFC 9745 sf-date of v2's release (= v1's deprecation). */
const V1_DEPRECATION_SF_DATE = deprecationSfDate(CALENDAR, 1);
/** The head as the answer's x-dl-api-version header carries it. */
const HEAD_HEADER = String(HEAD);
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const MIGRATION_GUIDE = 'https://example.com/migrate-v1-to-v2';

const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
const IMF = (d: Date) => d.toUTCString();
/** The versions CALENDAR still serves at `now` (the head always; an older one until its sunset). */
const servedAt = (now: Date) => VERSIONS.filter((v) => v === HEAD || sunsetOf(CALENDAR, v).getTime() > now.getTime());

/** Reads the versions calendar from the public listener. */
async function versionsAt(stack: Stack, now: Date) {
  stack.setNow(now);
  const res = await fetch(`${stack.url}/versions`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    latest: number | null;
    versions: { version: number; status: string; releasedAt: string; deprecatedAt: string | null; sunsetAt: string | null; migrationGuide: string | null }[];
  };
}

function expectNoLifecycleHeaders(headers: Headers) {
  expect(headers.get('deprecation')).toBeNull();
  expect(headers.get('sunset')).toBeNull();
  expect(headers.get('link')).toBeNull();
}

describe('the version calendar (v1 from 2025-01-15, the head from 2026-10-01, 180-day window)', () => {
  let stack: Stack;
  /** A report written at v1, so that both versions can read it. */
  let reportId: string;
  const backendCount = () => stack.backend!.requests.length;

  beforeAll(async () => {
    stack = await startStack({ now: DURING_V1_ONLY });
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/lifecycle', config: {} }, '1');
    expect(created.status).toBe(200);
    reportId = created.body.id;
  });
  afterAll(() => stack.close());

  describe('before v2 is released', () => {
    beforeAll(() => stack.setNow(DURING_V1_ONLY));

    it('resolves `latest` to 1', async () => {
      stack.setNow(DURING_V1_ONLY);
      const res = await rpc(stack.url, 'getReport', { reportId }, 'latest');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-dl-api-version')).toBe('1');
      expect(res.body).toMatchObject({ id: reportId, key: 'reports/marketing/lifecycle' });
      expect(res.body).not.toHaveProperty('workbookId');
      expect(stack.backend!.requests.at(-1)!.headers['x-dl-client-api-version']).toBe('1');
    });

    it('refuses v2 as unreleased, lists only v1 as supported, and forwards nothing', async () => {
      stack.setNow(DURING_V1_ONLY);
      const before = backendCount();
      const res = await rpc(stack.url, 'getReport', { reportId }, '2');
      const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
      expect(details).toMatchObject({ reason: 'unreleased', supported: [1], latest: 1 });
      expect(backendCount()).toBe(before);
    });

    it('refuses v2 one millisecond before its release and serves it at the release instant', async () => {
      stack.setNow(ms(V2_RELEASE, -1));
      expectProblem(await rpc(stack.url, 'getReport', { reportId }, '2'), 400, 'INVALID_API_VERSION_HEADER');
      stack.setNow(V2_RELEASE);
      const res = await rpc(stack.url, 'getReport', { reportId }, '2');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-dl-api-version')).toBe('2');
    });

    it('serves v1 without Deprecation, Sunset or Link headers', async () => {
      stack.setNow(DURING_V1_ONLY);
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-dl-api-version')).toBe('1');
      expectNoLifecycleHeaders(res.headers);
    });

    it('refuses `latest` as unreleased before any version is released, with no latest and nothing supported', async () => {
      stack.setNow(new Date('2024-12-31T23:59:59Z'));
      const res = await rpc(stack.url, 'getReport', { reportId }, 'latest');
      const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
      expect(details).toMatchObject({ reason: 'unreleased', supported: [], latest: null });
    });
  });

  describe('while v1 is deprecated', () => {
    it('serves v1 with Deprecation as an RFC 9745 sf-date of v2\'s release', async () => {
      stack.setNow(DURING_DEPRECATION);
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      expect(res.status).toBe(200);
      const deprecation = res.headers.get('deprecation');
      expect(deprecation).toMatch(/^@\d+$/);
      expect(deprecation).toBe(V1_DEPRECATION_SF_DATE);
    });

    it('serves v1 with Sunset as an IMF-fixdate no earlier than the deprecation', async () => {
      stack.setNow(DURING_DEPRECATION);
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      const sunset = res.headers.get('sunset');
      expect(sunset).toMatch(IMF_FIXDATE);
      expect(sunset).toBe(IMF(V1_SUNSET));
      expect(Date.parse(sunset!)).toBe(V1_SUNSET.getTime());
      expect(Date.parse(sunset!) / 1000).toBeGreaterThanOrEqual(Number(res.headers.get('deprecation')!.slice(1)));
    });

    it('serves v1 with a Link to the migration guide with rel="deprecation"', async () => {
      stack.setNow(DURING_DEPRECATION);
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      const link = res.headers.get('link');
      expect(link).toMatch(/^<https:\/\/example\.com\/migrate-v1-to-v2>; rel="deprecation"/);
    });

    it('sends the deprecation headers on v1 refusals the gateway makes too (a validation error)', async () => {
      stack.setNow(DURING_DEPRECATION);
      const res = await rpc(stack.url, 'createReport', { config: {} }, '1');
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.headers.get('deprecation')).toBe(V1_DEPRECATION_SF_DATE);
      expect(res.headers.get('sunset')).toMatch(IMF_FIXDATE);
    });

    it('sends the deprecation headers on v1 answers the backend refused (unknown report)', async () => {
      stack.setNow(DURING_DEPRECATION);
      const res = await rpc(stack.url, 'getReport', { reportId: 'rep_missing' }, '1');
      expect(res.status).toBe(404);
      expect(res.headers.get('deprecation')).toBe(V1_DEPRECATION_SF_DATE);
    });

    it('serves the head and `latest` without any of the deprecation headers', async () => {
      stack.setNow(DURING_DEPRECATION);
      for (const version of [HEAD_HEADER, 'latest']) {
        const res = await rpc(stack.url, 'getReport', { reportId }, version);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-dl-api-version')).toBe(HEAD_HEADER);
        expectNoLifecycleHeaders(res.headers);
      }
    });

    it('still serves v1, with headers, one millisecond before the sunset', async () => {
      stack.setNow(ms(V1_SUNSET, -1));
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBe(V1_DEPRECATION_SF_DATE);
      expect(res.headers.get('sunset')).toBe(IMF(V1_SUNSET));
    });
  });

  describe('from v1\'s sunset on', () => {
    it.each([
      ['at exactly the sunset instant', V1_SUNSET],
      ['after the sunset', AFTER_V1_SUNSET],
    ])('refuses v1 %s with 410 API_VERSION_SUNSET and forwards nothing', async (_label, now) => {
      stack.setNow(now);
      const before = backendCount();
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      const details = expectProblem(res, 410, 'API_VERSION_SUNSET');
      expect(details).toMatchObject({ sunset: V1_SUNSET.toISOString(), latest: HEAD, supported: servedAt(now) });
      expect(details.supported).not.toContain(1);
      expect(backendCount()).toBe(before);
    });

    it('refuses a v1 write after the sunset before reading or translating it (no key lookup upstream)', async () => {
      stack.setNow(AFTER_V1_SUNSET);
      const before = backendCount();
      const res = await rpc(stack.url, 'createReport', { key: 'nowhere/at-all', config: {} }, '1');
      expectProblem(res, 410, 'API_VERSION_SUNSET');
      expect(backendCount()).toBe(before);
    });

    it('keeps serving the head and `latest` after v1\'s sunset', async () => {
      stack.setNow(AFTER_V1_SUNSET);
      for (const version of [HEAD_HEADER, 'latest']) {
        const res = await rpc(stack.url, 'getReport', { reportId }, version);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-dl-api-version')).toBe(HEAD_HEADER);
      }
    });
  });

  describe('GET /versions', () => {
    it('shows v1 current and v2 unreleased before v2\'s release, with latest 1', async () => {
      const body = await versionsAt(stack, DURING_V1_ONLY);
      expect(body.latest).toBe(1);
      expect(body.versions.map((v) => [v.version, v.status])).toEqual(VERSIONS.map((v) => [v, v === 1 ? 'current' : 'unreleased']));
    });

    it('shows v1 and every version before the head deprecated, and the head current, during the window, with every date', async () => {
      const body = await versionsAt(stack, DURING_DEPRECATION);
      expect(body.latest).toBe(HEAD);
      expect(body.versions[0]).toEqual({
        version: 1,
        status: 'deprecated',
        releasedAt: '2025-01-15T00:00:00.000Z',
        deprecatedAt: V2_RELEASE.toISOString(),
        sunsetAt: V1_SUNSET.toISOString(),
        migrationGuide: MIGRATION_GUIDE,
        brownouts: [],
        brownoutShare: 0,
      });
      expect(body.versions.at(-1)).toEqual({
        version: HEAD,
        status: 'current',
        releasedAt: releaseOf(CALENDAR, HEAD).toISOString(),
        deprecatedAt: null,
        sunsetAt: null,
        migrationGuide: null,
        brownouts: [],
        brownoutShare: 0,
      });
      expect(body.versions.map((v) => [v.version, v.status])).toEqual(VERSIONS.map((v) => [v, v === HEAD ? 'current' : 'deprecated']));
    });

    it.each([
      ['at v2\'s release instant', V2_RELEASE, 'deprecated'],
      ['one millisecond before v1\'s sunset', ms(V1_SUNSET, -1), 'deprecated'],
      ['at v1\'s sunset instant', V1_SUNSET, 'sunset'],
      ['after v1\'s sunset', AFTER_V1_SUNSET, 'sunset'],
    ])('shows v1 %s (%s) as %s and the newest released version current', async (_label, now, v1Status) => {
      const body = await versionsAt(stack, now);
      const latest = VERSIONS.filter((v) => releaseOf(CALENDAR, v).getTime() <= now.getTime()).at(-1)!;
      expect(body.latest).toBe(latest);
      expect(body.versions[0]!.status).toBe(v1Status);
      expect(body.versions.find((v) => v.version === latest)!.status).toBe('current');
    });

    it('shows no latest and every version unreleased before v1\'s release', async () => {
      const body = await versionsAt(stack, new Date('2025-01-14T23:59:59.999Z'));
      expect(body.latest).toBeNull();
      expect(body.versions.map((v) => v.status)).toEqual(VERSIONS.map(() => 'unreleased'));
    });
  });
});

describe('an explicit sunset date in the config (v1 sunset 2026-12-01)', () => {
  const EXPLICIT_SUNSET = new Date('2026-12-01T00:00:00Z');
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      now: DURING_DEPRECATION,
      config: {
        lifecycle: {
          ...CALENDAR,
          versions: [{ ...CALENDAR.versions[0]!, sunset: '2026-12-01' }, ...CALENDAR.versions.slice(1)],
        },
      },
    });
  });
  afterAll(() => stack.close());

  it('announces the configured date in Sunset instead of release + window', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe(V1_DEPRECATION_SF_DATE);
    expect(res.headers.get('sunset')).toBe('Tue, 01 Dec 2026 00:00:00 GMT');
  });

  it('refuses v1 with 410 from the configured date, long before the default window would end', async () => {
    stack.setNow(EXPLICIT_SUNSET);
    const before = stack.backend!.requests.length;
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    const details = expectProblem(res, 410, 'API_VERSION_SUNSET');
    expect(details).toMatchObject({ sunset: '2026-12-01T00:00:00.000Z', latest: HEAD, supported: VERSIONS.slice(1) });
    expect(stack.backend!.requests.length).toBe(before);
  });

  it('lists the configured sunset in GET /versions', async () => {
    const body = await versionsAt(stack, ms(EXPLICIT_SUNSET, -1));
    expect(body.versions[0]).toMatchObject({ version: 1, status: 'deprecated', sunsetAt: '2026-12-01T00:00:00.000Z' });
    const after = await versionsAt(stack, EXPLICIT_SUNSET);
    expect(after.versions[0]).toMatchObject({ version: 1, status: 'sunset' });
  });
});

describe('a version without a migration guide in the config', () => {
  const calendar = contractCalendar({ first: '2025-01-15', head: '2026-10-01', supportWindowDays: 30 });
  const WITHOUT_GUIDES = { ...calendar, versions: calendar.versions.map(({ version, released }) => ({ version, released })) };
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      now: DURING_DEPRECATION,
      config: { lifecycle: { ...WITHOUT_GUIDES, supportWindowDays: 30 } },
    });
  });
  afterAll(() => stack.close());

  it('is served while deprecated with Deprecation and Sunset, and a Link to its successor only (no guide)', async () => {
    stack.setNow(new Date(releaseOf(calendar, 2).getTime() + 14 * 86_400_000));
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe(V1_DEPRECATION_SF_DATE);
    expect(res.headers.get('sunset')).toBe(IMF(sunsetOf(calendar, 1)));
    expect(res.headers.get('link')).toBe('</2/>; rel="successor-version"');
  });

  it('follows the configured 30-day window to its sunset', async () => {
    stack.setNow(sunsetOf(calendar, 1));
    expectProblem(await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1'), 410, 'API_VERSION_SUNSET');
  });
});
