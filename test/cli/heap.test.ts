import { describe, expect, it } from 'vitest';
import { V8_SETTINGS, named, tuneHeap } from '../../src/cli/heap.js';

describe('the V8 settings serve applies at start-up', () => {
  it('are the heap growth and no allocation-site pretenuring', () => {
    expect(V8_SETTINGS.map((s) => s.flag)).toEqual(['--heap-growing-percent=200', '--no-allocation-site-pretenuring']);
  });

  it('leave to the command line a flag it names, in either polarity and spelling', () => {
    expect(named(['--allocation-site-pretenuring'], 'allocation-site-pretenuring')).toBe(true);
    expect(named(['--no-allocation_site_pretenuring'], 'allocation-site-pretenuring')).toBe(true);
    expect(named(['--heap_growing_percent=50'], 'heap-growing-percent')).toBe(true);
    expect(named(['--no-liftoff-only'], 'liftoff-only')).toBe(true);
    expect(named(['--liftoff'], 'liftoff-only')).toBe(false);
    expect(named(['--max-semi-space-size=8'], 'heap-growing-percent')).toBe(false);
  });

  it('apply nothing when the command line names every flag', () => {
    expect(tuneHeap(['--heap-growing-percent=300', '--allocation-site-pretenuring'])).toEqual([]);
  });
});
