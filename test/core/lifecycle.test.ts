// The version calendar (release, deprecation, sunset, brownouts) and the lifecycle headers derived from it.
import { describe, expect, it } from 'vitest';
import {
  brownoutAt,
  buildCalendar,
  type CalendarEntry,
  findEntry,
  latestAt,
  statusAt,
  supportedAt,
} from '../../src/core/lifecycle/calendar.js';
import { lifecycleHeaders } from '../../src/core/lifecycle/headers.js';

const at = (iso: string) => new Date(iso);
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
const DAY = 86_400_000;

const R1 = at('2025-01-01T00:00:00Z');
const R2 = at('2025-03-01T00:00:00Z');
const R3 = at('2025-06-01T00:00:00Z');

describe('buildCalendar', () => {
  it('orders the plans by version and deprecates each at the next release', () => {
    const { entries } = buildCalendar(
      [
        { version: 3, releasedAt: R3 },
        { version: 1, releasedAt: R1 },
        { version: 2, releasedAt: R2 },
      ],
      10,
    );
    expect(entries.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(entries[0]?.deprecatedAt).toEqual(R2);
    expect(entries[1]?.deprecatedAt).toEqual(R3);
    expect(entries[2]).not.toHaveProperty('deprecatedAt');
  });

  it('sets the sunset a support window after the deprecation unless the plan names one', () => {
    const sunset1 = at('2025-12-31T00:00:00Z');
    const { entries } = buildCalendar(
      [
        { version: 1, releasedAt: R1, sunsetAt: sunset1 },
        { version: 2, releasedAt: R2 },
        { version: 3, releasedAt: R3 },
      ],
      45,
    );
    expect(entries[0]?.sunsetAt).toEqual(sunset1);
    expect(entries[1]?.sunsetAt).toEqual(new Date(R3.getTime() + 45 * DAY));
    expect(entries[2]).not.toHaveProperty('sunsetAt');
  });

  it('copies the migration guide, the brownouts and the share, with defaults of none', () => {
    const window = { start: at('2025-03-10T00:00:00Z'), end: at('2025-03-10T01:00:00Z') };
    const { entries } = buildCalendar(
      [
        { version: 1, releasedAt: R1, migrationGuide: 'https://example.test/guide', brownouts: [window], brownoutShare: 0.1 },
        { version: 2, releasedAt: R2 },
      ],
      30,
    );
    expect(entries[0]).toEqual({
      version: 1,
      releasedAt: R1,
      deprecatedAt: R2,
      sunsetAt: new Date(R2.getTime() + 30 * DAY),
      migrationGuide: 'https://example.test/guide',
      brownouts: [window],
      brownoutShare: 0.1,
    });
    expect(entries[1]).toEqual({ version: 2, releasedAt: R2, brownouts: [], brownoutShare: 0 });
  });

  it('freezes the calendar, its entries and their brownouts', () => {
    const calendar = buildCalendar(
      [
        { version: 1, releasedAt: R1, brownouts: [] },
        { version: 2, releasedAt: R2 },
      ],
      30,
    );
    expect(Object.isFrozen(calendar)).toBe(true);
    expect(Object.isFrozen(calendar.entries)).toBe(true);
    expect(Object.isFrozen(calendar.entries[0])).toBe(true);
    expect(Object.isFrozen(calendar.entries[0]?.brownouts)).toBe(true);
    expect(Object.isFrozen(calendar.entries[1]?.brownouts)).toBe(true);
  });

  it('refuses a version released at the same instant as the one before it', () => {
    expect(() =>
      buildCalendar(
        [
          { version: 1, releasedAt: R1 },
          { version: 2, releasedAt: R1 },
        ],
        30,
      ),
    ).toThrow('version 2 must be released after version 1');
  });

  it('refuses a version released before the one before it, whatever the order of the plans', () => {
    expect(() =>
      buildCalendar(
        [
          { version: 3, releasedAt: R2 },
          { version: 2, releasedAt: R3 },
          { version: 1, releasedAt: R1 },
        ],
        30,
      ),
    ).toThrow('version 3 must be released after version 2');
  });

  it('accepts a release one millisecond after the previous one', () => {
    expect(() =>
      buildCalendar(
        [
          { version: 1, releasedAt: R1 },
          { version: 2, releasedAt: ms(R1, 1) },
        ],
        30,
      ),
    ).not.toThrow();
  });

  it('refuses a sunset on the newest version, which nothing replaces', () => {
    expect(() =>
      buildCalendar(
        [
          { version: 1, releasedAt: R1 },
          { version: 2, releasedAt: R2, sunsetAt: R3 },
        ],
        30,
      ),
    ).toThrow('version 2 has a sunset date but no later version replaces it');
  });

  it('refuses brownout windows on the newest version', () => {
    expect(() =>
      buildCalendar([{ version: 1, releasedAt: R1, brownouts: [{ start: R2, end: R3 }] }], 30),
    ).toThrow('version 1 has brownouts but no later version deprecates it');
  });

  it('refuses a brownout share on the newest version, and accepts a share of 0 or no windows there', () => {
    expect(() => buildCalendar([{ version: 1, releasedAt: R1, brownoutShare: 0.5 }], 30)).toThrow(
      'version 1 has brownouts but no later version deprecates it',
    );
    expect(() => buildCalendar([{ version: 1, releasedAt: R1, brownoutShare: 0, brownouts: [] }], 30)).not.toThrow();
  });

  it('refuses a sunset before the deprecation, naming both instants and the deprecating version', () => {
    expect(() =>
      buildCalendar(
        [
          { version: 1, releasedAt: R1, sunsetAt: ms(R2, -1) },
          { version: 2, releasedAt: R2 },
        ],
        30,
      ),
    ).toThrow(
      'version 1: sunset 2025-02-28T23:59:59.999Z is before its deprecation 2025-03-01T00:00:00.000Z (the release of version 2)',
    );
  });

  it('accepts a sunset exactly at the deprecation instant: the version goes from current to sunset', () => {
    const { entries } = buildCalendar(
      [
        { version: 1, releasedAt: R1, sunsetAt: R2 },
        { version: 2, releasedAt: R2 },
      ],
      30,
    );
    const v1 = entries[0] as CalendarEntry;
    expect(v1.sunsetAt).toEqual(R2);
    expect(statusAt(v1, ms(R2, -1))).toBe('current');
    expect(statusAt(v1, R2)).toBe('sunset');
    expect(lifecycleHeaders(v1, ms(R2, -1))).toEqual({});
  });

  it('accepts a support window of 0 days: sunset at the deprecation', () => {
    const { entries } = buildCalendar(
      [
        { version: 1, releasedAt: R1 },
        { version: 2, releasedAt: R2 },
      ],
      0,
    );
    expect(entries[0]?.sunsetAt).toEqual(R2);
  });
});

// v1: released R1, deprecated R2, sunset R2 + 10 days; v2 released R2, deprecated R3; v3 current from R3.
// Built inside each test: code run while tests are collected would make every mutant in it a static one.
const three = () => {
  const calendar = buildCalendar(
    [
      {
        version: 1,
        releasedAt: R1,
        brownouts: [{ start: at('2025-03-05T00:00:00Z'), end: at('2025-03-05T02:00:00Z') }],
        brownoutShare: 0.3,
        migrationGuide: 'https://example.test/v2',
      },
      { version: 2, releasedAt: R2 },
      { version: 3, releasedAt: R3 },
    ],
    10,
  );
  const [v1, v2, v3] = calendar.entries as [CalendarEntry, CalendarEntry, CalendarEntry];
  return { calendar, v1, v2, v3 };
};
const SUNSET1 = new Date(R2.getTime() + 10 * DAY);

describe('statusAt', () => {
  it('is unreleased until the release instant, current from it', () => {
    const { v2 } = three();
    expect(statusAt(v2, ms(R2, -1))).toBe('unreleased');
    expect(statusAt(v2, R2)).toBe('current');
  });

  it('is deprecated from the next release on, sunset from the sunset instant on', () => {
    const { v1 } = three();
    expect(statusAt(v1, ms(R2, -1))).toBe('current');
    expect(statusAt(v1, R2)).toBe('deprecated');
    expect(statusAt(v1, ms(SUNSET1, -1))).toBe('deprecated');
    expect(statusAt(v1, SUNSET1)).toBe('sunset');
  });

  it('keeps the newest version current', () => {
    const { v3 } = three();
    expect(statusAt(v3, at('2099-01-01T00:00:00Z'))).toBe('current');
  });
});

describe('findEntry, latestAt, supportedAt', () => {
  it('finds an entry by version number', () => {
    const { calendar, v2 } = three();
    expect(findEntry(calendar, 2)).toBe(v2);
    expect(findEntry(calendar, 4)).toBeUndefined();
  });

  it('gives the newest version released at the instant, the release instant included', () => {
    const { calendar, v1, v2, v3 } = three();
    expect(latestAt(calendar, ms(R1, -1))).toBeUndefined();
    expect(latestAt(calendar, R1)).toBe(v1);
    expect(latestAt(calendar, ms(R3, -1))).toBe(v2);
    expect(latestAt(calendar, R3)).toBe(v3);
  });

  it('supports the released versions not past their sunset', () => {
    const { calendar } = three();
    expect(supportedAt(calendar, ms(R1, -1))).toEqual([]);
    expect(supportedAt(calendar, R2)).toEqual([1, 2]);
    expect(supportedAt(calendar, SUNSET1)).toEqual([2]);
    expect(supportedAt(calendar, R3)).toEqual([2, 3]);
  });
});

describe('brownoutAt', () => {
  const windowStart = at('2025-03-05T00:00:00Z');
  const windowEnd = at('2025-03-05T02:00:00Z');

  it('holds a scheduled window from its start, inclusive, to its end, exclusive', () => {
    const { v1 } = three();
    expect(brownoutAt(v1, ms(windowStart, -1), 0.99)).toBeUndefined();
    expect(brownoutAt(v1, windowStart, 0.99)).toEqual({ window: v1.brownouts[0] });
    expect(brownoutAt(v1, ms(windowEnd, -1), 0.99)).toEqual({ window: v1.brownouts[0] });
    expect(brownoutAt(v1, windowEnd, 0.99)).toBeUndefined();
  });

  it('refuses the share whose roll is strictly under it', () => {
    const { v1 } = three();
    const t = at('2025-03-06T00:00:00Z');
    expect(brownoutAt(v1, t, 0)).toEqual({ share: 0.3 });
    expect(brownoutAt(v1, t, 0.2999)).toEqual({ share: 0.3 });
    expect(brownoutAt(v1, t, 0.3)).toBeUndefined();
    expect(brownoutAt(v1, t, 0.9)).toBeUndefined();
  });

  it('names the window, not the share, when both apply', () => {
    const { v1 } = three();
    expect(brownoutAt(v1, windowStart, 0)).toEqual({ window: v1.brownouts[0] });
  });

  it('browns out nothing before the deprecation or after the sunset', () => {
    const { v1 } = three();
    expect(brownoutAt(v1, ms(R2, -1), 0)).toBeUndefined();
    expect(brownoutAt(v1, SUNSET1, 0)).toBeUndefined();
  });

  it('browns out nothing for a deprecated version with no share and no window', () => {
    const { v2 } = three();
    expect(brownoutAt(v2, at('2025-06-02T00:00:00Z'), 0)).toBeUndefined();
  });

  it('ignores a window scheduled while the version is still current', () => {
    const early = buildCalendar(
      [
        { version: 1, releasedAt: R1, brownouts: [{ start: ms(R2, -DAY), end: ms(R2, DAY) }] },
        { version: 2, releasedAt: R2 },
      ],
      30,
    ).entries[0] as CalendarEntry;
    expect(brownoutAt(early, ms(R2, -1), 0.99)).toBeUndefined();
    expect(brownoutAt(early, R2, 0.99)).toEqual({ window: early.brownouts[0] });
  });
});

describe('lifecycleHeaders', () => {
  it('sends nothing for a version not yet deprecated', () => {
    const { v1, v3 } = three();
    expect(lifecycleHeaders(v1, ms(R2, -1))).toEqual({});
    expect(lifecycleHeaders(v3, at('2099-01-01T00:00:00Z'))).toEqual({});
  });

  it('sends Deprecation as @seconds, Sunset as an HTTP-date and the guide as a Link from the deprecation on', () => {
    const { v1, v2 } = three();
    expect(lifecycleHeaders(v1, R2)).toEqual({
      deprecation: `@${R2.getTime() / 1000}`,
      sunset: 'Tue, 11 Mar 2025 00:00:00 GMT',
      link: '<https://example.test/v2>; rel="deprecation"; type="text/html"',
    });
  });

  it('rounds the deprecation instant down to the second', () => {
    const entry: CalendarEntry = {
      version: 1,
      releasedAt: R1,
      deprecatedAt: at('2025-03-01T00:00:00.999Z'),
      brownouts: [],
      brownoutShare: 0,
    };
    expect(lifecycleHeaders(entry, R3)).toEqual({ deprecation: `@${R2.getTime() / 1000}` });
  });

  it('sends only the headers it has facts for, frozen', () => {
    const { v2 } = three();
    const headers = lifecycleHeaders(v2, R3);
    expect(headers).toEqual({ deprecation: `@${R3.getTime() / 1000}`, sunset: 'Wed, 11 Jun 2025 00:00:00 GMT' });
    expect(Object.isFrozen(headers)).toBe(true);
  });
});
