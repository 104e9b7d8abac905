// The benchmark's verdicts: medians and spreads of rounds, the paired comparison's sign test, the uniform target line.
import { describe, expect, it } from 'vitest';
import { MIN_VERDICT_ROUNDS, median, pairedVerdict, perRoundRatios, quantile, signTestP, spread, takePair, targetLine } from '../../bench/verdict.js';

describe('median and spread of rounds', () => {
  it('is the middle round, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('leaves out rounds that measured nothing', () => {
    expect(median([Number.NaN, 5, 7])).toBe(6);
  });

  it('interpolates quartiles between ranks', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(spread([0.9, 1.1, 1, 0.95, 1.05])).toEqual({ median: 1, q1: 0.95, q3: 1.05, min: 0.9, max: 1.1 });
  });

  it('pairs rounds by index', () => {
    expect(perRoundRatios([110, 90], [100, 100])).toEqual([1.1, 0.9]);
    expect(perRoundRatios([1, 2], [1])[1]).toBeNaN();
  });
});

describe('the paired verdict', () => {
  it('uses the two-sided sign test', () => {
    expect(signTestP(5, 5)).toBeCloseTo(0.0625);
    expect(signTestP(8, 9)).toBeCloseTo(20 / 512);
    expect(signTestP(1, 9)).toBeCloseTo(20 / 512);
    expect(signTestP(5, 10)).toBe(1);
  });

  it('finds B cheaper when 8 of 9 rounds say so', () => {
    const v = pairedVerdict([0.93, 0.95, 0.9, 0.97, 1.02, 0.94, 0.96, 0.92, 0.95]);
    expect(v.kind).toBe('lower');
    expect(v.below).toBe(8);
    expect(v.ratios.median).toBe(0.95);
    expect(v.text).toMatch(/^B costs 5\.0 % less than A/);
  });

  it('finds B costlier when every round says so', () => {
    expect(pairedVerdict([1.2, 1.1, 1.15, 1.3, 1.05, 1.12]).kind).toBe('higher');
  });

  it('resolves nothing when the rounds disagree, however far the median is from 1', () => {
    const v = pairedVerdict([0.8, 0.85, 1.1, 0.9, 1.05, 0.88, 1.2, 0.86, 0.9]);
    expect(v.kind).toBe('noise');
    expect(v.text).toMatch(/IQR 0\.86–1\.05/);
  });

  it(`gives no verdict under ${MIN_VERDICT_ROUNDS} rounds, even when all agree`, () => {
    expect(pairedVerdict([0.5, 0.5, 0.5, 0.5, 0.5]).kind).toBe('too-few');
  });

  it('does not count ties or unmeasured rounds', () => {
    const v = pairedVerdict([1, 1, Number.NaN, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]);
    expect(v.n).toBe(6);
    expect(v.kind).toBe('lower');
  });
});

describe('a target line', () => {
  it('passes on the median of the rounds, not on each round', () => {
    const t = targetLine({ label: 'x', op: '≤', goal: 2, values: [1.9, 2.4, 1.8] });
    expect(t).toEqual({ line: 'x: target ≤ 2: median 1.90 (rounds: 1.90, 2.40, 1.80) PASS', pass: true });
  });

  it('fails when the median misses, whatever one round did', () => {
    const t = targetLine({ label: 'y', op: '≥', goal: 0.8, values: [0.9, 0.7, 0.75], unit: '×' });
    expect(t.pass).toBe(false);
    expect(t.line).toBe('y: target ≥ 0.8×: median 0.75× (rounds: 0.90, 0.70, 0.75) FAIL');
  });

  it('judges a total or a maximum when asked', () => {
    expect(targetLine({ label: 'e', op: '=', goal: 0, values: [0, 1], stat: 'total', of: 'rows', digits: 0 }).line).toBe('e: target = 0: total 1 (rows: 0, 1) FAIL');
    expect(targetLine({ label: 'm', op: '≤', goal: 5, values: [1, 4], stat: 'max', of: 'rows' }).pass).toBe(true);
  });
});

describe('--paired A B', () => {
  it('takes the flag and its two values out of the arguments', () => {
    expect(takePair(['--only', 'gw-latest', '--paired', 'HEAD~1', 'HEAD', '--rounds', '3'], '--paired')).toEqual({
      pair: ['HEAD~1', 'HEAD'],
      rest: ['--only', 'gw-latest', '--rounds', '3'],
    });
    expect(takePair(['--quick'], '--paired')).toEqual({ pair: undefined, rest: ['--quick'] });
  });

  it('refuses a single value', () => {
    expect(() => takePair(['--paired', 'HEAD', '--only', 'x'], '--paired')).toThrow(/two values/);
  });
});
