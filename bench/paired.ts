// The report of a paired run (`--paired A B`, `--paired-rows R1 R2`): per row, each side's CPU µs per request by
// round, the per-round ratios B / A with their spread, and the verdict of bench/verdict.ts.

import { median, pairedVerdict, perRoundRatios } from './verdict.js';

export interface PairedSide {
  /** What A or B is: a build's label, or a row's name. */
  readonly label: string;
  /** Round by round, in round order. */
  readonly cpuUs: readonly number[];
  readonly rps: readonly number[];
  readonly errors: number;
}

export interface Pair {
  /** The row both sides served (for two builds), or 'R1 vs R2' (for two rows). */
  readonly row: string;
  readonly a: PairedSide;
  readonly b: PairedSide;
}

const list = (values: readonly number[], digits: number) => values.map((v) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a')).join(', ');

/** The report's lines for one pair; `verdict` is the paired verdict on CPU per request. */
export function pairedLines(pair: Pair): { lines: string[]; verdict: ReturnType<typeof pairedVerdict> } {
  const cpu = perRoundRatios(pair.b.cpuUs, pair.a.cpuUs);
  const rps = perRoundRatios(pair.b.rps, pair.a.rps);
  const verdict = pairedVerdict(cpu);
  const side = (name: string, s: PairedSide) =>
    `  ${name} ${s.label}: CPU µs/req median ${median(s.cpuUs).toFixed(0)} (rounds: ${list(s.cpuUs, 0)}); req/s median ${median(s.rps).toFixed(0)}; errors ${s.errors}`;
  const lines = [
    `${pair.row}`,
    side('A', pair.a),
    side('B', pair.b),
    `  CPU per request B / A: median ${verdict.ratios.median.toFixed(3)} (rounds: ${list(cpu, 3)})`,
    `  req/s B / A:           median ${median(rps).toFixed(3)} (rounds: ${list(rps, 3)})`,
    `  verdict: ${verdict.text}`,
  ];
  return { lines, verdict };
}
