// The usage record behind the impact report (src/core/impact/usage.ts), as a plain object: counts per client,
// version and method, the watched paths sent, first and last seen, calls per day, its caps, and merging a batch back.
import { describe, expect, it } from 'vitest';
import { DAYS_KEPT, UsageBook } from '../../src/core/impact/usage.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const book = (maxClients = 10, maxPathsPerClient = 10) => new UsageBook({ maxClients, maxPathsPerClient });

describe('UsageBook.record', () => {
  it('counts calls per version and method, the paths each call sent, first and last seen (in any order of arrival)', () => {
    const b = book();
    b.record('org:a', 1, 'save', T0 + 5 * DAY, ['note', 'tag']);
    b.record('org:a', 1, 'save', T0 + 2 * DAY, ['note']);
    b.record('org:a', 1, 'save', T0 + 9 * DAY, []);
    b.record('org:a', 2, 'save', T0 + DAY);
    b.record('org:a', 1, 'read', T0 + 7 * DAY);
    b.record('org:a', 1, 'save', T0 + 3 * DAY); // late: neither first nor last
    const snap = b.snapshot();
    expect(snap.dropped).toEqual({ clients: 0, paths: 0 });
    expect(snap.clients).toHaveLength(1);
    const [a] = snap.clients;
    expect(a).toStrictEqual({
      client: 'org:a',
      firstSeen: T0 + DAY,
      lastSeen: T0 + 9 * DAY,
      uses: [
        { version: 1, method: 'save', calls: 4, firstSeen: T0 + 2 * DAY, lastSeen: T0 + 9 * DAY, paths: { note: 2, tag: 1 } },
        { version: 2, method: 'save', calls: 1, firstSeen: T0 + DAY, lastSeen: T0 + DAY, paths: {} },
        { version: 1, method: 'read', calls: 1, firstSeen: T0 + 7 * DAY, lastSeen: T0 + 7 * DAY, paths: {} },
      ],
      days: { '2026-11-02': 1, '2026-11-03': 1, '2026-11-04': 1, '2026-11-06': 1, '2026-11-08': 1, '2026-11-10': 1 },
    });
    expect(Object.keys(a!.days)).toEqual(['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-06', '2026-11-08', '2026-11-10']);
    expect(b.size).toBe(1);
  });

  it('counts calls on their UTC day, the last instant of a day included', () => {
    const b = book();
    b.record('c', 1, 'm', T0 + DAY - 1);
    b.record('c', 1, 'm', T0 + DAY);
    b.record('c', 1, 'm', T0 + DAY + 1);
    expect(b.snapshot().clients[0]!.days).toEqual({ '2026-11-01': 1, '2026-11-02': 2 });
  });

  it(`keeps the last ${DAYS_KEPT} days a client called on`, () => {
    const b = book();
    for (let d = 0; d < DAYS_KEPT; d++) b.record('c', 1, 'm', T0 + d * DAY);
    expect(Object.keys(b.snapshot().clients[0]!.days)).toHaveLength(DAYS_KEPT);
    b.record('c', 1, 'm', T0 + DAYS_KEPT * DAY);
    const days = Object.keys(b.snapshot().clients[0]!.days);
    expect(days).toHaveLength(DAYS_KEPT);
    expect(days[0]).toBe('2026-11-02');
    expect(days.at(-1)).toBe('2026-12-02');
    // A late call on a day older than all kept is dropped at once.
    b.record('c', 1, 'm', T0 - DAY);
    expect(Object.keys(b.snapshot().clients[0]!.days)).toEqual(days);
    expect(b.snapshot().clients[0]!.uses[0]!.calls).toBe(DAYS_KEPT + 2);
  });

  it('past maxPathsPerClient, new paths are dropped and counted; paths already kept still count', () => {
    const b = book(10, 2);
    b.record('c', 1, 'm', T0, ['a', 'b', 'c']);
    b.record('c', 2, 'm', T0, ['a', 'd']);
    b.record('c', 1, 'm', T0, ['a', 'b']);
    b.record('other', 1, 'm', T0, ['a', 'b']);
    const snap = b.snapshot();
    expect(snap.clients[0]!.uses.map((u) => u.paths)).toEqual([{ a: 2, b: 2 }, {}]);
    expect(snap.clients[1]!.uses[0]!.paths).toEqual({ a: 1, b: 1 });
    expect(snap.dropped.paths).toBe(3);
  });

  it('past maxClients, drops the clients seen longest ago (at least one, a tenth of a large book) and counts them', () => {
    const small = book(3);
    for (let i = 0; i < 3; i++) small.record(`c${i}`, 1, 'm', T0 + (3 - i) * 1000); // c2 is the oldest
    small.record('c0', 1, 'm', T0 + 10_000);
    small.record('new', 1, 'm', T0 + 20_000);
    expect(small.snapshot().clients.map((c) => c.client)).toEqual(['c0', 'c1', 'new']);
    expect(small.snapshot().dropped.clients).toBe(1);
    expect(small.size).toBe(3);

    const large = book(20);
    for (let i = 0; i < 20; i++) large.record(`c${String(i).padStart(2, '0')}`, 1, 'm', T0 + i);
    large.record('c19', 1, 'm', T0 + 100); // a known client is no new one
    expect(large.snapshot().dropped.clients).toBe(0);
    large.record('new', 1, 'm', T0 + 200);
    expect(large.snapshot().dropped.clients).toBe(2);
    expect(large.snapshot().clients.map((c) => c.client).slice(0, 2)).toEqual(['c02', 'c03']);
    expect(large.size).toBe(19);
  });

  it('a lowered cap drops as many clients as it takes to make room', () => {
    const b = book(10);
    for (let i = 0; i < 10; i++) b.record(`c${i}`, 1, 'm', T0 + i);
    b.setLimits({ maxClients: 4, maxPathsPerClient: 10 });
    b.record('new', 1, 'm', T0 + 100);
    expect(b.snapshot().clients.map((c) => c.client)).toEqual(['c7', 'c8', 'c9', 'new']);
    expect(b.snapshot().dropped.clients).toBe(7);
  });
});

describe('UsageBook.firstSeenOn', () => {
  it('when the client was first seen calling the version, over all its methods', () => {
    const b = book();
    b.record('c', 1, 'a', T0 + 500);
    b.record('c', 1, 'b', T0 + 100);
    b.record('c', 1, 'c', T0 + 300);
    b.record('c', 2, 'a', T0 + 50);
    expect(b.firstSeenOn('c', 1)).toBe(T0 + 100);
    expect(b.firstSeenOn('c', 2)).toBe(T0 + 50);
    expect(b.firstSeenOn('c', 3)).toBeUndefined();
    expect(b.firstSeenOn('nobody', 1)).toBeUndefined();
  });
});

describe('UsageBook.merge', () => {
  it('adds another book counts: calls, paths, first and last seen, days, and what it dropped', () => {
    const mine = book(10, 10);
    mine.record('c', 1, 'm', T0 + DAY, ['p']);
    const batch = book(1, 1);
    batch.record('gone', 1, 'm', T0);
    batch.record('c', 1, 'm', T0, ['p', 'q']); // q over the batch's path cap; gone dropped for c
    batch.record('c', 1, 'm', T0 + 3 * DAY, ['p']);
    batch.record('c', 2, 'x', T0 + 2 * DAY);
    mine.merge(batch);
    const snap = mine.snapshot();
    expect(snap.dropped).toEqual({ clients: 1, paths: 1 });
    expect(snap.clients).toStrictEqual([
      {
        client: 'c',
        firstSeen: T0,
        lastSeen: T0 + 3 * DAY,
        uses: [
          { version: 1, method: 'm', calls: 3, firstSeen: T0, lastSeen: T0 + 3 * DAY, paths: { p: 3 } },
          { version: 2, method: 'x', calls: 1, firstSeen: T0 + 2 * DAY, lastSeen: T0 + 2 * DAY, paths: {} },
        ],
        days: { '2026-11-01': 1, '2026-11-02': 1, '2026-11-03': 1, '2026-11-04': 1 },
      },
    ]);
  });

  it('brings in a client the book did not have, with its days', () => {
    const mine = book();
    const batch = book();
    batch.record('n', 3, 'm', T0 + DAY, ['p']);
    batch.record('n', 3, 'm', T0 + DAY, ['p']);
    mine.merge(batch);
    expect(mine.snapshot().clients).toStrictEqual([
      { client: 'n', firstSeen: T0 + DAY, lastSeen: T0 + DAY, uses: [{ version: 3, method: 'm', calls: 2, firstSeen: T0 + DAY, lastSeen: T0 + DAY, paths: { p: 2 } }], days: { '2026-11-02': 2 } },
    ]);
  });
});
