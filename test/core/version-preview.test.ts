// Preview access in the pure resolution: an unreleased version asked for by number is served to a caller one of whose
// names the calendar lists; the caller is asked only then; `latest` and everyone else resolve as without the list.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';
import { resolveVersion, type PreviewCaller } from '../../src/core/version/resolve.js';

const calendar = buildCalendar(
  [
    { version: 1, releasedAt: new Date('2030-01-01T00:00:00Z') },
    { version: 2, releasedAt: new Date('2030-06-01T00:00:00Z'), preview: ['org:acme', 'cred:0123456789ab'] },
  ],
  365,
);
const BEFORE = new Date('2030-05-01T00:00:00Z');
const AFTER = new Date('2030-07-01T00:00:00Z');

/** A caller with these names, counting how often it was asked. */
function caller(...ids: string[]): PreviewCaller & { asked: number } {
  return {
    asked: 0,
    previewIds() {
      this.asked++;
      return ids;
    },
  };
}

const refusal = (fn: () => unknown): GatewayError => {
  try {
    fn();
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error('expected a refusal');
};

describe('preview access', () => {
  it.each([['org:acme'], ['cred:0123456789ab']])('serves the unreleased version to a caller named %s, and says which name let it in', (id) => {
    const r = resolveVersion('2', calendar, BEFORE, 1, caller('org:other', id));
    expect(r).toMatchObject({ version: 2, deprecated: false, preview: id });
  });

  it('refuses any other caller, or none, as unreleased', () => {
    for (const who of [caller('org:other', 'cred:ffffffffffff'), caller(), undefined]) {
      const e = refusal(() => resolveVersion('2', calendar, BEFORE, 1, who));
      expect(e.code).toBe('INVALID_API_VERSION_HEADER');
      expect(e.details).toMatchObject({ reason: 'unreleased', received: '2', latest: 1, supported: [1] });
    }
  });

  it('never asks the caller for a released version, for latest, or for a version without a list', () => {
    const who = caller('org:acme');
    expect(resolveVersion('latest', calendar, BEFORE, 1, who)).toMatchObject({ version: 1 });
    expect(resolveVersion('1', calendar, BEFORE, 1, who)).not.toHaveProperty('preview');
    const released = resolveVersion('2', calendar, AFTER, 1, who);
    expect(released).toMatchObject({ version: 2 });
    expect(released).not.toHaveProperty('preview');
    expect(who.asked).toBe(0);
  });
});
