// The impact core on the shipped contract: which later changes a call meets, and the bounded usage record.

import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { impactsAfter } from '../../src/core/impact/changes.js';
import { buildImpactReport, watchedPaths } from '../../src/core/impact/report.js';
import { UsageBook } from '../../src/core/impact/usage.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';

const loaded = loadContract(shippedContract);
const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const STORE = { kind: 'memory', note: 'this process only' } as const;

describe('impactsAfter', () => {
  it('a v1 createReport meets version 2\'s removal of `key` on its request', () => {
    const impacts = impactsAfter(loaded, 1, 'createReport');
    expect(impacts).toContainEqual(expect.objectContaining({ version: 2, method: 'createReport', scope: 'request', path: 'key' }));
    expect(watchedPaths(loaded, 1, 'createReport')).toContain('key');
  });

  it('a v1 getReport meets version 2\'s change of the report object in its answer', () => {
    expect(impactsAfter(loaded, 1, 'getReport')).toContainEqual(expect.objectContaining({ version: 2, scope: 'response' }));
  });

  it('nothing changes after the head', () => {
    for (const method of loaded.availableIn.keys()) expect(impactsAfter(loaded, HEAD, method)).toEqual([]);
  });

  it('every impact names a later version and a change description', () => {
    for (const version of VERSIONS) {
      for (const method of Object.keys(loaded.byVersion.get(version)!.methods)) {
        for (const i of impactsAfter(loaded, version, method)) {
          expect(i.version).toBeGreaterThan(version);
          expect(i.description.length).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe('UsageBook', () => {
  it('counts calls, paths, days, first and last seen', () => {
    const book = new UsageBook({ maxClients: 10, maxPathsPerClient: 10 });
    book.record('org:a', 1, 'createReport', T0, ['key']);
    book.record('org:a', 1, 'createReport', T0 + DAY, undefined);
    const [a] = book.snapshot().clients;
    expect(a).toMatchObject({ client: 'org:a', firstSeen: T0, lastSeen: T0 + DAY, days: { '2026-11-01': 1, '2026-11-02': 1 } });
    expect(a!.uses).toEqual([{ version: 1, method: 'createReport', calls: 2, firstSeen: T0, lastSeen: T0 + DAY, paths: { key: 1 } }]);
  });

  it('past maxClients drops the clients seen longest ago, and counts them', () => {
    const book = new UsageBook({ maxClients: 3, maxPathsPerClient: 10 });
    for (let i = 0; i < 5; i++) book.record(`org:c${i}`, 1, 'getReport', T0 + i, undefined);
    const snap = book.snapshot();
    expect(snap.clients.map((c) => c.client)).toEqual(['org:c2', 'org:c3', 'org:c4']);
    expect(snap.dropped.clients).toBe(2);
  });

  it('past maxPathsPerClient drops new paths, and counts them', () => {
    const book = new UsageBook({ maxClients: 3, maxPathsPerClient: 1 });
    book.record('org:a', 1, 'createReport', T0, ['key']);
    book.record('org:a', 1, 'updateReport', T0, ['key']);
    expect(book.snapshot().dropped.paths).toBe(1);
  });

  it('merge adds another book\'s counts', () => {
    const a = new UsageBook({ maxClients: 3, maxPathsPerClient: 5 });
    const b = new UsageBook({ maxClients: 3, maxPathsPerClient: 5 });
    a.record('org:a', 1, 'createReport', T0, ['key']);
    b.record('org:a', 1, 'createReport', T0 + 5, ['key']);
    a.merge(b);
    const [c] = a.snapshot().clients;
    expect(c!.uses[0]).toMatchObject({ calls: 2, lastSeen: T0 + 5, paths: { key: 2 } });
    expect(c!.days).toEqual({ '2026-11-01': 2 });
  });
});

describe('buildImpactReport', () => {
  const calendar = buildCalendar(
    VERSIONS.map((version, i) => ({ version, releasedAt: new Date(T0 - (VERSIONS.length - i) * 30 * DAY) })),
    180,
  );
  const book = new UsageBook({ maxClients: 10, maxPathsPerClient: 10 });
  book.record('org:old', 1, 'createReport', T0, ['key']);
  book.record('org:old', 1, 'createReport', T0, undefined);
  book.record('org:new', HEAD, 'getReport', T0, undefined);
  const report = buildImpactReport(loaded, calendar, new Date(T0), book.snapshot(), STORE);

  it('lists the clients on the oldest version first, with their version\'s sunset', () => {
    expect(report.clients.map((c) => c.client)).toEqual(['org:old', 'org:new']);
    const v1 = report.clients[0]!.versions[0]!;
    expect(v1).toMatchObject({ version: 1, status: 'deprecated', calls: 2, sunsetAt: calendar.entries[0]!.sunsetAt!.toISOString() });
    expect(v1.daysToSunset).toBeGreaterThan(0);
  });

  it('a request-field change counts only the calls that sent the field', () => {
    const v1 = report.clients[0]!.versions[0]!;
    expect(v1.affected).toContainEqual(expect.objectContaining({ version: 2, method: 'createReport', scope: 'request', path: 'key', calls: 1 }));
  });

  it('nothing affects a client at the head', () => {
    expect(report.clients[1]!.versions[0]!.affected).toEqual([]);
  });

  it('filters by client, version and method', () => {
    const f = (filters: object) => buildImpactReport(loaded, calendar, new Date(T0), book.snapshot(), STORE, filters).clients.map((c) => c.client);
    expect(f({ client: 'org:new' })).toEqual(['org:new']);
    expect(f({ version: 1 })).toEqual(['org:old']);
    expect(f({ method: 'getReport' })).toEqual(['org:new']);
    expect(f({ method: 'nothing' })).toEqual([]);
  });
});
