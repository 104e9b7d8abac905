// The impact report as a person reads it (core/impact/reading.ts and the CLI's lines): each change once with the
// methods it touches, counts in the right number, a past sunset said as "N days ago".

import { describe, expect, it } from 'vitest';
import { impactLines } from '../../src/cli/impact.js';
import { calendarDaysBetween, changesMet, plural, relativeDays } from '../../src/core/impact/reading.js';
import { SENT, expectedChanges, sampleReport } from './sample-report.js';

const report = sampleReport();
const v1 = report.clients.find((c) => c.client === 'org:dashboards')!.versions[0]!;

describe('changesMet', () => {
  const changes = changesMet(v1.affected);

  it('lists each change the client meets once, however many of its methods and fields it touches', () => {
    const descriptions = changes.map((c) => c.description);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(new Set(descriptions)).toEqual(expectedChanges());
    // The flat list names a change once per method and field; grouped, there are fewer lines.
    expect(v1.affected.length).toBeGreaterThan(changes.length);
  });

  it('names every method a change touches once, with the field sent, the answer, and the calls that met it', () => {
    const moved = changes.find((c) => c.description.includes('`data.description` moves'))!;
    expect(moved.methods).toEqual([
      { method: 'getDashboard', whole: false, answer: true, paths: [], calls: 3 },
      { method: 'updateDashboard', whole: false, answer: true, paths: [SENT], calls: 2 },
    ]);
  });

  it('orders the changes by the version that brings them', () => {
    const versions = changes.map((c) => c.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
  });
});

describe('words', () => {
  it('plural: one call, two calls, no field entries', () => {
    expect([plural(1, 'call'), plural(2, 'call'), plural(0, 'field entry', 'field entries')]).toEqual(['1 call', '2 calls', '0 field entries']);
  });

  it('relativeDays: today, tomorrow, yesterday, in N days, N days ago', () => {
    expect([0, 1, -1, 5, -28].map(relativeDays)).toEqual(['today', 'tomorrow', 'yesterday', 'in 5 days', '28 days ago']);
  });

  it('calendarDaysBetween counts days on the calendar, not 24-hour spans', () => {
    const d = (s: string) => new Date(s);
    expect(calendarDaysBetween(d('2027-06-10T23:00:00Z'), d('2027-06-11T00:00:00Z'))).toBe(1);
    expect(calendarDaysBetween(d('2027-06-11T15:00:00Z'), d('2027-06-11T00:00:00Z'))).toBe(0);
    expect(calendarDaysBetween(d('2027-07-09T15:00:00Z'), d('2027-06-11T00:00:00Z'))).toBe(-28);
  });
});

describe('the impact command\'s lines', () => {
  const lines = impactLines(report);

  it('say a past sunset as "28 days ago"', () => {
    const row = lines.find((l) => l.startsWith('org:dashboards'))!;
    expect(row).toContain('(28 days ago)');
    expect(row).not.toMatch(/-\d+ d/);
    expect(v1.daysToSunset).toBe(-28);
  });

  it('give each change one line, naming each method it touches once', () => {
    for (const description of expectedChanges()) expect(lines.filter((l) => l.includes(description))).toHaveLength(1);
    const moved = lines.find((l) => l.includes('`data.description` moves'))!;
    expect(moved).toContain(`getDashboard (answer, 3 calls); updateDashboard (sends \`${SENT}\`, answer, 2 calls)`);
    expect(moved.match(/getDashboard/g)).toHaveLength(1);
    expect(lines.filter((l) => l.includes('createReport (sends `key`'))).toHaveLength(1);
  });

  it('count in the right number', () => {
    expect(lines.join('\n')).not.toMatch(/\b1 calls\b/);
    expect(lines.some((l) => l.includes('1 call)'))).toBe(true);
  });
});
