// Brownouts: a deprecated version switched off for scheduled windows or a share of its requests, so that
// clients notice before the sunset; never the current version, never before the deprecation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { HEAD } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { sampleValue } from '../helpers/serve-process.js';
import { AFTER_V1_SUNSET, CALENDAR, DURING_DEPRECATION, DURING_V1_ONLY, type Stack, V1_SUNSET, rpc, startStack } from '../helpers/stack.js';

const [V1, ...LATER] = CALENDAR.versions as [(typeof CALENDAR.versions)[0], ...typeof CALENDAR.versions];
/** A window while v1 is deprecated (DURING_DEPRECATION is 2026-11-22T12:00Z). */
const WINDOW = { start: '2026-11-22T11:00:00Z', end: '2026-11-22T13:00:00Z' };
/** A window while v1 is still current (DURING_V1_ONLY is 2026-06-01T12:00Z). */
const EARLY_WINDOW = { start: '2026-06-01T11:00:00Z', end: '2026-06-01T13:00:00Z' };

/** The head's entry, and the versions between v1 and it. */
const HEAD_ENTRY = LATER.at(-1)!;
const OLDER = LATER.slice(0, -1);

const lifecycle = (v1Extra: Record<string, unknown>) => ({ lifecycle: { ...CALENDAR, versions: [{ ...V1, ...v1Extra }, ...LATER] } });

describe('a scheduled brownout window for v1', () => {
  let stack: Stack;
  const forwarded = () => stack.backend!.requests.length;
  beforeAll(async () => {
    stack = await startStack({
      now: DURING_DEPRECATION,
      config: lifecycle({ brownouts: [WINDOW, EARLY_WINDOW] }),
      metrics: createMetrics({ maxClients: 10, defaultMetrics: false }),
    });
  });
  afterAll(() => stack.close());

  it('refuses v1 inside the window with 410 API_VERSION_SUNSET, brownout: true and brownoutEnds, forwarding nothing', async () => {
    stack.setNow(DURING_DEPRECATION);
    const before = forwarded();
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    const details = expectProblem(res, 410, 'API_VERSION_SUNSET');
    expect(details).toMatchObject({ version: 1, brownout: true, brownoutEnds: '2026-11-22T13:00:00.000Z', sunset: V1_SUNSET.toISOString(), latest: HEAD });
    expect(details).not.toHaveProperty('brownoutShare');
    expect(forwarded()).toBe(before);
  });

  it('refuses a v1 write inside the window before reading or translating it', async () => {
    stack.setNow(DURING_DEPRECATION);
    const before = forwarded();
    const res = await rpc(stack.url, 'createReport', { key: 'nowhere/at-all', config: {} }, '1');
    expect(expectProblem(res, 410, 'API_VERSION_SUNSET').brownout).toBe(true);
    expect(forwarded()).toBe(before);
  });

  it('refuses v1 at the window start instant and serves it again at the end instant', async () => {
    stack.setNow(new Date(WINDOW.start));
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1')).status).toBe(410);
    stack.setNow(new Date(WINDOW.end));
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1')).status).toBe(200);
  });

  it('serves v1, with its deprecation headers, outside the window', async () => {
    stack.setNow(new Date('2026-11-22T10:59:59Z'));
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
  });

  it('never affects the current version, inside the window', async () => {
    stack.setNow(DURING_DEPRECATION);
    for (const version of [String(HEAD), 'latest']) {
      const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, version);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-dl-api-version')).toBe(String(HEAD));
    }
  });

  it('does not apply before v1 is deprecated, even inside a configured window', async () => {
    stack.setNow(DURING_V1_ONLY);
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
  });

  it('gives way to the sunset: after it, v1 is refused as sunset, not as a brownout', async () => {
    stack.setNow(AFTER_V1_SUNSET);
    const details = expectProblem(await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1'), 410, 'API_VERSION_SUNSET');
    expect(details).not.toHaveProperty('brownout');
  });

  // A brownout refusal still counts against its version and client: operators see exactly whom a brownout hit.
  it('still counts a brownout-refused v1 request in dlgw_deprecated_requests_total for its client', async () => {
    stack.setNow(DURING_DEPRECATION);
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'browned' })).status).toBe(410);
    const text = await stack.metrics.registry.metrics();
    expect(sampleValue(text, 'dlgw_deprecated_requests_total', { version: '1', client: 'org:browned' })).toBe(1);
  });
});

describe('a brownout share for v1', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.close();
  });
  const start = async (brownoutShare: number) => {
    const stack = await startStack({ now: DURING_DEPRECATION, config: lifecycle({ brownoutShare }) });
    stacks.push(stack);
    return stack;
  };

  it('of 1 refuses every v1 request while deprecated, with brownoutShare in the details, and serves v2', async () => {
    const stack = await start(1);
    const before = stack.backend!.requests.length;
    for (let i = 0; i < 20; i++) {
      const details = expectProblem(await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1'), 410, 'API_VERSION_SUNSET');
      expect(details).toMatchObject({ brownout: true, brownoutShare: 1 });
      expect(details).not.toHaveProperty('brownoutEnds');
    }
    expect(stack.backend!.requests.length).toBe(before);
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '2')).status).toBe(200);
    // Before the deprecation the share does not apply.
    stack.setNow(DURING_V1_ONLY);
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1')).status).toBe(200);
  });

  it('of 0 refuses no v1 request', async () => {
    const stack = await start(0);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1')).status);
    expect(statuses).toEqual(Array(20).fill(200));
  });
});

describe('check-config (parseConfig) and brownouts', () => {
  const refusal = (doc: unknown): string => {
    try {
      parseConfig(doc);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).problems.join('\n');
    }
    throw new Error('the config was accepted');
  };

  it('refuses brownout windows on a version nothing deprecates', () => {
    const problems = refusal({ lifecycle: { ...CALENDAR, versions: [V1, ...OLDER, { ...HEAD_ENTRY, brownouts: [WINDOW] }] } });
    expect(problems).toContain(`lifecycle.versions: version ${HEAD} has brownouts but no later version deprecates it`);
  });

  it('refuses a brownout share on a version nothing deprecates', () => {
    const problems = refusal({ lifecycle: { ...CALENDAR, versions: [V1, ...OLDER, { ...HEAD_ENTRY, brownoutShare: 0.1 }] } });
    expect(problems).toContain(`version ${HEAD} has brownouts`);
  });

  it('refuses a window that ends before it starts, and a share outside 0..1, naming the keys', () => {
    expect(refusal(lifecycle({ brownouts: [{ start: WINDOW.end, end: WINDOW.start }] }))).toMatch(/lifecycle\.versions\.0\.brownouts\.0: a brownout must end after it starts/);
    expect(refusal(lifecycle({ brownoutShare: 1.5 }))).toMatch(/lifecycle\.versions\.0\.brownoutShare: /);
  });

  it('accepts brownouts on a deprecated version and puts them in the calendar', () => {
    const { calendar } = parseConfig(lifecycle({ brownouts: [WINDOW], brownoutShare: 0.05 }));
    expect(calendar.entries[0]).toMatchObject({ version: 1, brownoutShare: 0.05 });
    expect(calendar.entries[0]!.brownouts.map((w) => [w.start.toISOString(), w.end.toISOString()])).toEqual([
      ['2026-11-22T11:00:00.000Z', '2026-11-22T13:00:00.000Z'],
    ]);
  });
});
