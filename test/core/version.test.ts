// The x-dl-api-version header: how a raw value parses, and how a request's version resolves against a calendar.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';
import { parseVersionHeader } from '../../src/core/version/parse-header.js';
import { resolveVersion, versionErrorDetails } from '../../src/core/version/resolve.js';

const at = (iso: string) => new Date(iso);

describe('parseVersionHeader', () => {
  it('reads an absent header as missing, without an echo', () => {
    expect(parseVersionHeader(undefined)).toEqual({ ok: false, reason: 'missing' });
  });

  it.each(['', ' ', '\t \t'])('reads the blank value %j as missing', (raw) => {
    expect(parseVersionHeader(raw)).toEqual({ ok: false, reason: 'missing' });
  });

  it.each([
    ['1', 1],
    ['2', 2],
    ['10', 10],
    ['907', 907],
  ])('reads the canonical integer %j as version %d', (raw, version) => {
    expect(parseVersionHeader(raw)).toEqual({ ok: true, requested: version, received: raw });
  });

  // Real DataLens reads the header as a number: its recorded answers serve `01` and `1.0` as version 1.
  it.each([
    ['01', 1],
    ['1.0', 1],
    ['1.', 1],
    ['001.000', 1],
    ['02', 2],
    ['10.0', 10],
    ['010', 10],
  ])('reads the decimal spelling %j as version %d, echoing it as sent', (raw, version) => {
    expect(parseVersionHeader(raw)).toEqual({ ok: true, requested: version, received: raw });
  });

  it('reads a thousand leading zeros before 2 as version 2, echoing at most 64 characters', () => {
    const raw = `${'0'.repeat(1000)}2`;
    expect(parseVersionHeader(raw)).toEqual({ ok: true, requested: 2, received: '0'.repeat(64) });
  });

  it('reads exactly `latest`', () => {
    expect(parseVersionHeader('latest')).toEqual({ ok: true, requested: 'latest', received: 'latest' });
  });

  it.each([' 2', '2 ', '\t2\t', ' \t 2 \t '])('trims only spaces and tabs around %j', (raw) => {
    expect(parseVersionHeader(raw)).toEqual({ ok: true, requested: 2, received: '2' });
  });

  it('trims around `latest` too', () => {
    expect(parseVersionHeader('  latest\t')).toEqual({ ok: true, requested: 'latest', received: 'latest' });
  });

  // Zero and whatever is not a decimal whole number; JavaScript's Number() (the real API's reading) takes the sign,
  // exponent, radix and Unicode-space forms too, and the gateway refuses them deliberately (docs/reference/errors.md).
  it.each(['0', '00', '0.0', '+1', '-1', '1.5', '1.01', '.1e1', '1e1', '1e0', '0x1', '0o1', '0b1', '1..0', '1.0.0', 'a1', '1a', 'v2', 'Latest', 'LATEST', 'latest1', '1 2', '\u00a02', '2\u00a0', '\u30002'])(
    'refuses %j as malformed and echoes it',
    (raw) => {
      expect(parseVersionHeader(raw)).toEqual({ ok: false, reason: 'malformed', received: raw });
    },
  );

  it.each(['1,2', '1, 2', ',', 'latest,1'])('refuses %j, a value with a comma, as multiple', (raw) => {
    expect(parseVersionHeader(raw)).toEqual({ ok: false, reason: 'multiple', received: raw });
  });

  it('reads a one-element array as its element', () => {
    expect(parseVersionHeader(['2'])).toEqual({ ok: true, requested: 2, received: '2' });
    expect(parseVersionHeader([' x '])).toEqual({ ok: false, reason: 'malformed', received: 'x' });
  });

  it('refuses several header lines as multiple, echoing them joined', () => {
    expect(parseVersionHeader(['1', '2'])).toEqual({ ok: false, reason: 'multiple', received: '1, 2' });
    expect(parseVersionHeader([])).toEqual({ ok: false, reason: 'multiple', received: '' });
  });

  it('bounds the echo of a long malformed value to 64 characters', () => {
    const raw = `x${'y'.repeat(99)}`;
    const parsed = parseVersionHeader(raw);
    expect(parsed).toEqual({ ok: false, reason: 'malformed', received: raw.slice(0, 64) });
    expect(parsed.received).toHaveLength(64);
  });

  it('keeps a malformed value of exactly 64 characters whole, and cuts one of 65', () => {
    const sixtyFour = 'z'.repeat(64);
    expect(parseVersionHeader(sixtyFour).received).toBe(sixtyFour);
    expect(parseVersionHeader(`${sixtyFour}!`).received).toBe(sixtyFour);
  });

  it('reads a long canonical integer as a version and bounds its echo to 64 characters', () => {
    const raw = '1'.repeat(80);
    const parsed = parseVersionHeader(raw);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.requested).toBe(Number(raw));
    expect(parsed.received).toBe('1'.repeat(64));
  });
});

// v1 released 2025-01-01, v2 2025-06-01 (deprecates v1), v3 2026-01-01 (deprecates v2); 30-day support window.
// Built inside each test: code run while tests are collected would make every mutant in it a static one.
const cal = () =>
  buildCalendar(
    [
      { version: 1, releasedAt: at('2025-01-01T00:00:00Z'), migrationGuide: 'https://example.test/v1-to-v2' },
      {
        version: 2,
        releasedAt: at('2025-06-01T00:00:00Z'),
        brownouts: [{ start: at('2026-01-10T00:00:00Z'), end: at('2026-01-10T01:00:00Z') }],
        brownoutShare: 0.25,
      },
      { version: 3, releasedAt: at('2026-01-01T00:00:00Z') },
    ],
    30,
  );

const refusal = (fn: () => unknown): GatewayError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a refusal');
};

describe('resolveVersion', () => {
  const now = at('2026-01-05T00:00:00Z'); // v1 sunset (2025-07-01), v2 deprecated, v3 current

  it('serves the current version, not deprecated', () => {
    const r = resolveVersion('3', cal(), now);
    expect(r.version).toBe(3);
    expect(r.entry.version).toBe(3);
    expect(r.deprecated).toBe(false);
  });

  it('serves a deprecated version and says so', () => {
    const r = resolveVersion('2', cal(), now, 0.99);
    expect(r).toMatchObject({ version: 2, deprecated: true });
  });

  it('resolves `latest` to the newest released version at that instant', () => {
    expect(resolveVersion('latest', cal(), now).version).toBe(3);
    expect(resolveVersion('latest', cal(), at('2025-12-31T23:59:59.999Z')).version).toBe(2);
    expect(resolveVersion('latest', cal(), at('2025-12-31T23:59:59.999Z')).deprecated).toBe(false);
  });

  it('refuses a missing header with the versions supported at that instant', () => {
    const e = refusal(() => resolveVersion(undefined, cal(), now));
    expect(e.code).toBe('INVALID_API_VERSION_HEADER');
    expect(e.message).toBe('the x-dl-api-version header is required');
    expect(e.details).toStrictEqual({ reason: 'missing', supported: [2, 3], latest: 3 });
  });

  it('refuses a malformed header and echoes what it received', () => {
    const e = refusal(() => resolveVersion('v2', cal(), now));
    expect(e.message).toMatch(/positive whole number in decimal \(1, 01 and 1\.0 all name version 1\), or exactly "latest"/);
    expect(e.details).toEqual({ reason: 'malformed', received: 'v2', supported: [2, 3], latest: 3 });
  });

  it('refuses several values as multiple', () => {
    const e = refusal(() => resolveVersion(['2', '3'], cal(), now));
    expect(e.message).toBe('x-dl-api-version must be sent once, with a single value');
    expect(e.details).toMatchObject({ reason: 'multiple', received: '2, 3' });
  });

  it('refuses a version the cal() does not hold as unknown', () => {
    const e = refusal(() => resolveVersion('4', cal(), now));
    expect(e.message).toBe('no such API version');
    expect(e.details).toEqual({ reason: 'unknown', received: '4', supported: [2, 3], latest: 3 });
  });

  it('refuses a version before its release as unreleased', () => {
    const before = at('2025-05-31T23:59:59.999Z');
    const e = refusal(() => resolveVersion('2', cal(), before));
    expect(e.message).toBe('this API version is not released yet');
    expect(e.details).toEqual({ reason: 'unreleased', received: '2', supported: [1], latest: 1 });
    expect(resolveVersion('2', cal(), at('2025-06-01T00:00:00Z')).version).toBe(2);
  });

  it('refuses `latest` before any release as unreleased, with latest null', () => {
    const e = refusal(() => resolveVersion('latest', cal(), at('2024-12-31T00:00:00Z')));
    expect(e.details).toEqual({ reason: 'unreleased', received: 'latest', supported: [], latest: null });
  });

  it('answers a sunset version with 410, its sunset, the migration guide and the version to use', () => {
    const e = refusal(() => resolveVersion('1', cal(), now));
    expect(e.code).toBe('API_VERSION_SUNSET');
    expect(e.status).toBe(410);
    expect(e.message).toBe(
      'API version 1 was sunset on 2025-07-01T00:00:00.000Z; use version 3 (migration guide: https://example.test/v1-to-v2)',
    );
    expect(e.details).toEqual({
      version: 1,
      sunset: '2025-07-01T00:00:00.000Z',
      migrationGuide: 'https://example.test/v1-to-v2',
      supported: [2, 3],
      latest: 3,
    });
  });

  it('names no guide for a sunset version without one', () => {
    const e = refusal(() => resolveVersion('2', cal(), at('2026-02-01T00:00:00Z')));
    expect(e.message).toBe('API version 2 was sunset on 2026-01-31T00:00:00.000Z; use version 3');
    expect(e.details).toMatchObject({ version: 2, migrationGuide: null, supported: [3], latest: 3 });
  });

  it('answers a deprecated version 410 during a scheduled brownout window, with its end', () => {
    const during = at('2026-01-10T00:30:00Z');
    const e = refusal(() => resolveVersion('2', cal(), during, 0.99));
    expect(e.code).toBe('API_VERSION_SUNSET');
    expect(e.message).toBe(
      'API version 2 is deprecated and temporarily switched off (a brownout) to warn of its sunset on 2026-01-31T00:00:00.000Z; migrate to version 3',
    );
    expect(e.details).toStrictEqual({
      version: 2,
      brownout: true,
      migrationGuide: null,
      brownoutEnds: '2026-01-10T01:00:00.000Z',
      sunset: '2026-01-31T00:00:00.000Z',
      supported: [2, 3],
      latest: 3,
    });
  });

  it('refuses the share of requests whose roll falls under the brownout share, and serves the rest', () => {
    const e = refusal(() => resolveVersion('2', cal(), now, 0.1));
    expect(e.details).toMatchObject({ version: 2, brownout: true, brownoutShare: 0.25 });
    expect(e.details).not.toHaveProperty('brownoutEnds');
    expect(refusal(() => resolveVersion('2', cal(), now, 0.2499)).code).toBe('API_VERSION_SUNSET');
    expect(resolveVersion('2', cal(), now, 0.25).version).toBe(2);
    expect(resolveVersion('2', cal(), now, 0.5).version).toBe(2);
  });

  it('draws no share brownout when the caller gives no roll', () => {
    expect(resolveVersion('2', cal(), now).version).toBe(2);
  });

  it('never browns out the current version', () => {
    expect(resolveVersion('3', cal(), at('2026-01-10T00:30:00Z'), 0).version).toBe(3);
  });
});

describe('versionErrorDetails', () => {
  it('lists the released, unsunset versions and the newest released one', () => {
    expect(versionErrorDetails(cal(), at('2025-06-15T00:00:00Z'))).toEqual({ supported: [1, 2], latest: 2 });
    expect(versionErrorDetails(cal(), at('2024-01-01T00:00:00Z'))).toEqual({ supported: [], latest: null });
  });
});
