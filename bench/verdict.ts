// The benchmark's statistics, pure: medians and spreads of rounds, paired per-round ratios, the sign test that
// decides whether a paired comparison has a verdict, and the uniform target line. Tested in test/bench/paired.test.ts.

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** The q-quantile (0 ≤ q ≤ 1), interpolated between the two nearest ranks (R's and numpy's default); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export interface Spread {
  readonly median: number;
  /** The interquartile range: half of the rounds lie between q1 and q3. */
  readonly q1: number;
  readonly q3: number;
  readonly min: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), q1: quantile(values, 0.25), q3: quantile(values, 0.75), min: quantile(values, 0), max: quantile(values, 1) };
}

/** numerator[i] / denominator[i] for each round both measured: each ratio compares rounds seconds apart. */
export function perRoundRatios(numerator: readonly number[], denominator: readonly number[]): number[] {
  return numerator.map((n, i) => n / (denominator[i] ?? Number.NaN));
}

/** Two-sided sign test: the chance of `below` or more extreme of `n` rounds on one side of 1.00 if the two did not differ. */
export function signTestP(below: number, n: number): number {
  if (n === 0) return 1;
  const k = Math.min(below, n - below);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += binomial(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** Below this many rounds no arrangement of them passes the sign test at 5 % (5 of 5 alike: p = 0.0625). */
export const MIN_VERDICT_ROUNDS = 6;
/** The sign test's level for a verdict. */
export const VERDICT_P = 0.05;

export interface PairedVerdict {
  /** 'lower' / 'higher': B's cost against A's, resolved; 'noise': the rounds disagree; 'too-few': not enough rounds. */
  readonly kind: 'lower' | 'higher' | 'noise' | 'too-few';
  readonly ratios: Spread;
  /** Rounds where B cost less than A, and rounds counted (ties and unmeasured rounds dropped). */
  readonly below: number;
  readonly n: number;
  readonly p: number;
  readonly text: string;
}

/**
 * The verdict on per-round ratios B / A of a cost (CPU µs per request): B differs from A when the rounds fall on one
 * side of 1.00 consistently enough that chance is unlikely (sign test, p ≤ 0.05: 6 of 6, 7 of 7, 7 of 8, 8 of 9, 9 of 10…).
 */
export function pairedVerdict(ratios: readonly number[]): PairedVerdict {
  const counted = ratios.filter((r) => Number.isFinite(r) && r !== 1);
  const below = counted.filter((r) => r < 1).length;
  const n = counted.length;
  const p = signTestP(below, n);
  const s = spread(ratios.filter(Number.isFinite));
  const range = `IQR ${s.q1.toFixed(2)}–${s.q3.toFixed(2)}, min–max ${s.min.toFixed(2)}–${s.max.toFixed(2)}; B lower in ${below} of ${n} rounds, sign test p = ${p.toFixed(3)}`;
  const percent = `${Math.abs((s.median - 1) * 100).toFixed(1)} %`;
  if (n < MIN_VERDICT_ROUNDS) {
    return { kind: 'too-few', ratios: s, below, n, p, text: `no verdict: ${n} round(s) counted, a verdict needs at least ${MIN_VERDICT_ROUNDS} (${range})` };
  }
  if (p > VERDICT_P) return { kind: 'noise', ratios: s, below, n, p, text: `no difference resolved: the rounds disagree (${range})` };
  const kind = below > n - below ? 'lower' : 'higher';
  return { kind, ratios: s, below, n, p, text: `B costs ${percent} ${kind === 'lower' ? 'less' : 'more'} than A (${range})` };
}

export interface TargetCheck {
  readonly label: string;
  /** '≤': the statistic must be at most `goal`; '≥': at least; '=': exactly. */
  readonly op: '≤' | '≥' | '=';
  readonly goal: number;
  /** The figure of each round (or of each part measured: rows, one whole run). */
  readonly values: readonly number[];
  /** How the values make the figure judged: the median of rounds (default), their maximum or their sum. */
  readonly stat?: 'median' | 'max' | 'total';
  /** What the values are, in the line: 'rounds' by default. */
  readonly of?: string;
  readonly digits?: number;
  readonly unit?: string;
  readonly note?: string;
  /** Pads `label:` to this width, to align a column of target lines. */
  readonly labelWidth?: number;
}

/** One target line, the same shape everywhere: `label: target ≤ X: median Y (rounds: a, b, c) PASS`. */
export function targetLine(check: TargetCheck): { line: string; pass: boolean } {
  const stat = check.stat ?? 'median';
  const digits = check.digits ?? 2;
  const value = stat === 'max' ? Math.max(...check.values) : stat === 'total' ? check.values.reduce((a, b) => a + b, 0) : median(check.values);
  const pass = check.op === '≤' ? value <= check.goal : check.op === '≥' ? value >= check.goal : value === check.goal;
  const unit = check.unit === undefined ? '' : check.unit === '×' ? '×' : ` ${check.unit}`;
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
  const rounds = check.values.map(f).join(', ');
  const line = `${`${check.label}:`.padEnd(check.labelWidth ?? 0)} target ${check.op} ${check.goal}${unit}: ${stat} ${f(value)}${unit} (${check.of ?? 'rounds'}: ${rounds}) ${pass ? 'PASS' : 'FAIL'}`;
  return { line: check.note ? `${line}   ${check.note}` : line, pass };
}

/**
 * Takes `--flag A B` out of an argument list (node's parseArgs has no two-valued option): the two values and the
 * arguments left; undefined values when the flag is absent.
 */
export function takePair(argv: readonly string[], flag: string): { pair: [string, string] | undefined; rest: string[] } {
  const i = argv.indexOf(flag);
  if (i < 0) return { pair: undefined, rest: [...argv] };
  const [a, b] = [argv[i + 1], argv[i + 2]];
  if (a === undefined || b === undefined || a.startsWith('--') || b.startsWith('--')) throw new Error(`${flag} takes two values: ${flag} A B`);
  return { pair: [a, b], rest: [...argv.slice(0, i), ...argv.slice(i + 3)] };
}
