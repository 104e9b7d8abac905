// The impact report, its notices and its reading, as plain functions over a small contract (impact-fixture.ts), a
// calendar and a usage record: what each client meets at each later version, counted; what is deprecated; which
// webhook notices are due; the report in words.
import { describe, expect, it } from 'vitest';
import { dueNotices } from '../../src/core/impact/notices.js';
import { calendarDaysBetween, changesMet, plural, relativeDays, touchedParts } from '../../src/core/impact/reading.js';
import { type AffectedUse, buildImpactReport, type ImpactReport } from '../../src/core/impact/report.js';
import { UsageBook } from '../../src/core/impact/usage.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';
import { impactContract } from './impact-fixture.js';

const DAY = 86_400_000;
const STORE = { kind: 'memory', note: 'this process only' } as const;
/** Version 1 released 2026-01-01, 2 on 2026-03-01, 3 on 2026-05-01; each served 60 days after the next one's release. */
const calendarOf = () =>
  buildCalendar(
    [
      { version: 1, releasedAt: new Date('2026-01-01T00:00:00Z'), migrationGuide: 'https://example.test/v1-to-v2' },
      { version: 2, releasedAt: new Date('2026-03-01T00:00:00Z') },
      { version: 3, releasedAt: new Date('2026-05-01T00:00:00Z') },
    ],
    60,
  );
// Version 1 is sunset on 2026-04-30, version 2 on 2026-06-30.
const NOW = new Date('2026-04-20T15:00:00Z');
const SEEN = Date.parse('2026-04-10T08:00:00Z');

/** Recorded in no order the report keeps: it sorts clients (oldest version first, then by name) and their versions. */
function usage() {
  const book = new UsageBook({ maxClients: 10, maxPathsPerClient: 20 });
  book.record('org:c', 3, 'list', SEEN);
  book.record('org:d', 1, 'ping', SEEN);
  book.record('org:a', 4, 'read', SEEN + 5 * DAY);
  book.record('org:b', 3, 'ping', SEEN + 3 * DAY);
  book.record('org:b', 1, 'save', SEEN, ['note', 'w.name']);
  book.record('org:b', 1, 'save', SEEN + DAY, ['w.name']);
  book.record('org:b', 1, 'save', SEEN + DAY);
  book.record('org:b', 1, 'read', SEEN + 2 * DAY);
  book.record('org:b', 1, 'gone', SEEN);
  book.record('org:a', 2, 'read', SEEN + 4 * DAY);
  book.record('org:a', 2, 'save', SEEN + 4 * DAY, ['extra.*.title']);
  return book.snapshot();
}

describe('buildImpactReport', () => {
  it('per client and version: calls by method, what later versions change of them (counted), what is deprecated, the sunset', () => {
    const report = buildImpactReport(impactContract(), calendarOf(), NOW, usage(), STORE);
    expect(report.generatedAt).toBe('2026-04-20T15:00:00.000Z');
    expect(report.store).toBe(STORE);
    expect(report.filters).toEqual({});
    expect(report.dropped).toEqual({ clients: 0, paths: 0 });
    expect(report.calendar.map((r) => [r.version, r.status, r.sunsetAt])).toEqual([
      [1, 'deprecated', '2026-04-30T00:00:00.000Z'],
      [2, 'current', '2026-06-30T00:00:00.000Z'],
      [3, 'unreleased', null],
    ]);
    // The clients on the oldest version first, then by name.
    expect(report.clients.map((c) => c.client)).toEqual(['org:b', 'org:d', 'org:a', 'org:c']);
    const b = report.clients[0]!;
    expect(b.firstSeen).toBe('2026-04-10T08:00:00.000Z');
    expect(b.lastSeen).toBe('2026-04-13T08:00:00.000Z');
    expect(b.callsPerDay).toEqual({ '2026-04-10': 2, '2026-04-11': 2, '2026-04-12': 1, '2026-04-13': 1 });
    expect(b.versions.map((v) => v.version)).toEqual([1, 3]);
    const v1 = b.versions[0]!;
    expect(v1).toMatchObject({ version: 1, status: 'deprecated', sunsetAt: '2026-04-30T00:00:00.000Z', daysToSunset: 10, calls: 5 });
    expect(v1.methods).toStrictEqual([
      { method: 'gone', calls: 1, firstSeen: '2026-04-10T08:00:00.000Z', lastSeen: '2026-04-10T08:00:00.000Z', paths: {} },
      { method: 'read', calls: 1, firstSeen: '2026-04-12T08:00:00.000Z', lastSeen: '2026-04-12T08:00:00.000Z', paths: {} },
      { method: 'save', calls: 3, firstSeen: '2026-04-10T08:00:00.000Z', lastSeen: '2026-04-11T08:00:00.000Z', paths: { note: 1, 'w.name': 2 } },
    ]);
    // A request field counts the calls that sent it (none: left out); an answer or a whole method, every call.
    expect(v1.affected.map((a) => [a.version, a.method, a.scope, a.path ?? '', a.calls])).toEqual([
      [2, 'gone', 'method', '', 1],
      [2, 'read', 'response', '', 1],
      [2, 'save', 'request', 'note', 1],
      [2, 'save', 'request', 'w.name', 2],
      [2, 'save', 'response', '', 3],
      [3, 'read', 'response', '', 1],
      [3, 'read', 'response', '', 1],
      [3, 'save', 'response', '', 3],
    ]);
    expect(v1.affected[2]).toStrictEqual({ version: 2, method: 'save', scope: 'request', path: 'note', kind: 'fieldRemoved', description: 'save drops note', calls: 1 });
    expect(v1.deprecated).toStrictEqual([
      { method: 'save', path: 'note', since: '2026-01-01', replacement: 'nothing', description: 'save: note is going', calls: 1 },
      { method: 'gone', since: '2026-01-10', replacement: 'read', description: 'gone is going', calls: 1 },
    ]);
    // The head: nothing changes later; an unreleased version has no sunset.
    expect(b.versions[1]).toMatchObject({ version: 3, status: 'unreleased', sunsetAt: null, daysToSunset: null, calls: 1, affected: [], deprecated: [] });
  });

  it('counts a deprecated field by the calls that sent it, a deprecated method by all its calls; a version outside the calendar is "unknown"', () => {
    const report = buildImpactReport(impactContract(), calendarOf(), NOW, usage(), STORE);
    const a = report.clients.find((c) => c.client === 'org:a')!;
    expect(a.versions.map((v) => [v.version, v.status, v.sunsetAt, v.daysToSunset])).toEqual([
      [2, 'current', '2026-06-30T00:00:00.000Z', 71],
      [4, 'unknown', null, null],
    ]);
    expect(a.versions[0]!.deprecated).toStrictEqual([
      { method: 'read', since: '2026-06-01T12:00:00Z', replacement: 'list', description: 'read is going', calls: 1 },
      { method: 'save', path: 'extra.*.title', since: '2026-03-01', replacement: 'w.title', description: 'extra titles are going', calls: 1 },
    ]);
    expect(a.versions[0]!.affected.map((x) => [x.version, x.method, x.scope, x.path ?? ''])).toEqual([
      [3, 'read', 'response', ''],
      [3, 'read', 'response', ''],
      [3, 'save', 'response', ''],
    ]);
  });

  it('narrows to a client, a version, a method; a client left with no use is left out', () => {
    const loaded = impactContract();
    const calendar = calendarOf();
    const snap = usage();
    const by = (filters: Parameters<typeof buildImpactReport>[5]) => buildImpactReport(loaded, calendar, NOW, snap, STORE, filters);
    expect(by({ client: 'org:a' }).clients.map((c) => c.client)).toEqual(['org:a']);
    expect(by({ client: 'org:a' }).filters).toEqual({ client: 'org:a' });
    expect(by({ client: 'org:x' }).clients).toEqual([]);
    expect(by({ version: 3 }).clients.map((c) => [c.client, c.versions.map((v) => v.version)])).toEqual([
      ['org:b', [3]],
      ['org:c', [3]],
    ]);
    const reads = by({ method: 'read' });
    expect(reads.clients.map((c) => [c.client, c.versions.map((v) => [v.version, v.methods.map((m) => m.method)])])).toEqual([
      ['org:b', [[1, ['read']]]],
      ['org:a', [[2, ['read']], [4, ['read']]]],
    ]);
    expect(by({ version: 1, method: 'gone' }).clients[0]!.versions[0]!.calls).toBe(1);
    // The calendar rows are the whole calendar whatever the filters.
    expect(reads.calendar).toHaveLength(3);
  });

  it('a sunset version counts negative days', () => {
    const report = buildImpactReport(impactContract(), calendarOf(), new Date('2026-05-03T01:00:00Z'), usage(), STORE, { client: 'org:b', version: 1 });
    expect(report.clients[0]!.versions[0]).toMatchObject({ status: 'sunset', daysToSunset: -3 });
  });
});

const row = (version: number, status: 'current' | 'deprecated' | 'sunset' | 'unreleased', migrationGuide: string | null = null) => ({
  version,
  status,
  releasedAt: '2026-01-01T00:00:00.000Z',
  deprecatedAt: null,
  sunsetAt: null,
  migrationGuide,
});

function reportFor(versions: { version: number; status: 'current' | 'deprecated' | 'sunset' | 'unknown'; sunsetAt: string | null }[], client = 'org:a'): ImpactReport {
  const affected: AffectedUse[] = [{ version: 2, method: 'save', scope: 'request', path: 'note', kind: 'fieldRemoved', description: 'save drops note', calls: 2 }];
  return {
    generatedAt: '2026-04-20T00:00:00.000Z',
    store: STORE,
    filters: {},
    calendar: [row(1, 'deprecated', 'https://example.test/guide'), row(2, 'current'), row(3, 'current'), row(4, 'unreleased')],
    dropped: { clients: 0, paths: 0 },
    clients: [
      {
        client,
        firstSeen: '2026-04-01T00:00:00.000Z',
        lastSeen: '2026-04-02T00:00:00.000Z',
        callsPerDay: {},
        versions: versions.map((v) => ({ ...v, daysToSunset: null, calls: 1, methods: [], affected, deprecated: [] })),
      },
    ],
  };
}

describe('dueNotices', () => {
  const NOTICE_NOW = new Date('2026-04-20T00:00:00Z');

  it('one first-call notice per deprecated version with a sunset, and one for the nearest lead time reached', () => {
    const report = reportFor([{ version: 1, status: 'deprecated', sunsetAt: '2026-05-10T12:00:00.000Z' }]);
    const due = dueNotices(report, { 'org:a': 'https://hooks.test/a' }, [90, 30, 7], NOTICE_NOW);
    const base = {
      client: 'org:a',
      version: 1,
      sunsetAt: '2026-05-10T12:00:00.000Z',
      daysToSunset: 20,
      migrationGuide: 'https://example.test/guide',
      latestVersion: 3,
      changes: report.clients[0]!.versions[0]!.affected,
      deprecated: [],
      createdAt: '2026-04-20T00:00:00.000Z',
    };
    expect(due).toStrictEqual([
      { client: 'org:a', url: 'https://hooks.test/a', body: { ...base, id: 'org:a|v1|first-call', type: 'deprecated-version-first-call' } },
      { client: 'org:a', url: 'https://hooks.test/a', body: { ...base, id: 'org:a|v1|lead-30', type: 'sunset-approaching', leadDays: 30 } },
    ]);
  });

  it('no lead notice before the longest lead time; one exactly at it', () => {
    const report = reportFor([{ version: 1, status: 'deprecated', sunsetAt: '2026-05-20T00:00:00.000Z' }]);
    expect(dueNotices(report, { 'org:a': 'u' }, [7], NOTICE_NOW).map((d) => d.body.type)).toEqual(['deprecated-version-first-call']);
    expect(dueNotices(report, { 'org:a': 'u' }, [], NOTICE_NOW)).toHaveLength(1);
    const at = dueNotices(report, { 'org:a': 'u' }, [30, 60], NOTICE_NOW);
    expect(at.map((d) => [d.body.id, d.body.leadDays, d.body.daysToSunset])).toEqual([
      ['org:a|v1|first-call', undefined, 30],
      ['org:a|v1|lead-30', 30, 30],
    ]);
  });

  it('a sunset already past counts negative days and still reaches every lead time (the nearest is named)', () => {
    const report = reportFor([{ version: 1, status: 'deprecated', sunsetAt: '2026-04-19T12:00:00.000Z' }]);
    const due = dueNotices(report, { 'org:a': 'u' }, [30, 1, 7], NOTICE_NOW);
    expect(due.map((d) => [d.body.type, d.body.leadDays, d.body.daysToSunset])).toEqual([
      ['deprecated-version-first-call', undefined, -1],
      ['sunset-approaching', 1, -1],
    ]);
  });

  it('none for versions not deprecated or without a sunset, nor for clients without a webhook', () => {
    const report = reportFor([
      { version: 2, status: 'current', sunsetAt: '2026-05-10T00:00:00.000Z' },
      { version: 3, status: 'deprecated', sunsetAt: null },
      { version: 0, status: 'sunset', sunsetAt: '2026-01-10T00:00:00.000Z' },
    ]);
    expect(dueNotices(report, { 'org:a': 'u' }, [30], NOTICE_NOW)).toEqual([]);
    const deprecated = reportFor([{ version: 1, status: 'deprecated', sunsetAt: '2026-05-10T00:00:00.000Z' }]);
    expect(dueNotices(deprecated, { 'org:b': 'u' }, [30], NOTICE_NOW)).toEqual([]);
    expect(dueNotices(deprecated, { 'org:a': '' }, [30], NOTICE_NOW)).toEqual([]);
    // A client id is looked up as the map's own key, never through its prototype.
    const named = reportFor([{ version: 1, status: 'deprecated', sunsetAt: '2026-05-10T00:00:00.000Z' }], 'toString');
    expect(dueNotices(named, {}, [30], NOTICE_NOW)).toEqual([]);
  });

  it('a version outside the calendar has no migration guide; no current version, no latest', () => {
    const report = reportFor([{ version: 9, status: 'deprecated', sunsetAt: '2026-05-10T00:00:00.000Z' }]);
    const noCurrent = { ...report, calendar: [row(1, 'deprecated', 'https://example.test/v1-only'), row(2, 'unreleased')] };
    const [first] = dueNotices(noCurrent, { 'org:a': 'u' }, [], NOTICE_NOW);
    expect(first!.body).toMatchObject({ version: 9, migrationGuide: null, latestVersion: null });
  });
});

describe('the report in words', () => {
  const use = (over: Partial<AffectedUse>): AffectedUse => ({ version: 2, method: 'save', scope: 'response', kind: 'fieldRenamed', description: 'd', calls: 1, ...over });

  it('changesMet: each change once, its methods by name, with whole call, answer, the fields sent, the largest count', () => {
    const met = changesMet([
      use({ version: 3, method: 'save', scope: 'request', path: 'tag', kind: 'fieldToArray', description: 'tags', calls: 2 }),
      use({ method: 'save', scope: 'request', path: 'w.name', calls: 2 }),
      use({ method: 'save', scope: 'request', path: 'extra.*.name', calls: 1 }),
      use({ method: 'save', scope: 'request', path: 'w.name', calls: 2 }),
      use({ method: 'save', scope: 'response', calls: 5 }),
      use({ method: 'read', scope: 'response', calls: 4 }),
      use({ version: 2, method: 'gone', scope: 'method', kind: 'methodRemoved', description: 'gone', calls: 1 }),
      // Same version and kind, another description: another change.
      use({ method: 'list', description: 'e', calls: 7 }),
    ]);
    expect(met).toStrictEqual([
      {
        version: 2,
        kind: 'fieldRenamed',
        description: 'd',
        methods: [
          { method: 'read', whole: false, answer: true, paths: [], calls: 4 },
          { method: 'save', whole: false, answer: true, paths: ['w.name', 'extra.*.name'], calls: 5 },
        ],
      },
      { version: 2, kind: 'methodRemoved', description: 'gone', methods: [{ method: 'gone', whole: true, answer: false, paths: [], calls: 1 }] },
      { version: 2, kind: 'fieldRenamed', description: 'e', methods: [{ method: 'list', whole: false, answer: true, paths: [], calls: 7 }] },
      { version: 3, kind: 'fieldToArray', description: 'tags', methods: [{ method: 'save', whole: false, answer: false, paths: ['tag'], calls: 2 }] },
    ]);
    expect(changesMet([])).toEqual([]);
  });

  it('touchedParts: removed or the whole call, the fields sent, the answer, in that order', () => {
    expect(touchedParts({ method: 'm', whole: true, answer: false, paths: [], calls: 1 }, 'methodRemoved')).toEqual(['removed']);
    expect(touchedParts({ method: 'm', whole: true, answer: true, paths: ['a', 'b.c'], calls: 1 }, 'custom')).toEqual(['the whole call', 'sends `a`', 'sends `b.c`', 'answer']);
    expect(touchedParts({ method: 'm', whole: false, answer: false, paths: [], calls: 0 }, 'custom')).toEqual([]);
  });

  it('plural', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(0, 'call')).toBe('0 calls');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
  });

  it('calendarDaysBetween counts UTC calendar days, whatever the hours', () => {
    expect(calendarDaysBetween(new Date('2026-04-20T23:59:59Z'), new Date('2026-04-21T00:00:00Z'))).toBe(1);
    expect(calendarDaysBetween(new Date('2026-04-20T00:00:00Z'), new Date('2026-04-20T23:59:59Z'))).toBe(0);
    expect(calendarDaysBetween(new Date('2026-04-20T12:00:00Z'), new Date('2026-04-17T13:00:00Z'))).toBe(-3);
    expect(calendarDaysBetween(new Date('2026-02-28T10:00:00Z'), new Date('2026-03-01T09:00:00Z'))).toBe(1);
    expect(calendarDaysBetween(new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'))).toBe(365);
  });

  it('relativeDays', () => {
    expect([0, 1, -1, 2, 28, -2, -28].map(relativeDays)).toEqual(['today', 'tomorrow', 'yesterday', 'in 2 days', 'in 28 days', '2 days ago', '28 days ago']);
  });
});
