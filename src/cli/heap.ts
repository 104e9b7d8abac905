// V8 settings `serve` applies at start-up (BENCHMARKS.md, 2026-11-23 and 2026-11-26; docs/operations.md, "Size memory").
// Each is set at run time, so it holds however Node is started; the same flag on the command line (either
// polarity, e.g. --allocation-site-pretenuring to undo --no-allocation-site-pretenuring) wins.
//
// - --heap-growing-percent=200: the old generation grows to about three times its live size before a full collection
//   (V8's own default allows about four). At 100 its headroom (about the live size, 25–30 MB on a dashboard gateway)
//   was below the young generation's 32 MB, and V8 kept starting full collections that freed almost nothing, every
//   200–300 ms under a 500 KiB dashboard read: about 20 % more CPU per dashboard answer. The price of 200 is a higher
//   peak RSS after long mixed load (179–200 MB against 163 MB in the bench's default runs; BENCHMARKS.md, "Heap
//   growing percent: 200 again").
// - --no-allocation-site-pretenuring: V8 marks an allocation site "tenured" once most objects made there outlive a
//   scavenge, and from then on allocates them straight in the old generation. After a few seconds of /rpc traffic
//   (32 connections, requests in flight at every scavenge) sites the web pass-through shares get tenured, and each
//   of its requests then leaves its garbage in the old generation: about 40 MB and 5–10 full collections per
//   five-second bench round, against none with the decisions off (BENCHMARKS.md, 2026-11-26, issue 25).
//
// Not set: --liftoff-only. On the first upstream call V8 optimises undici's HTTP parser (llhttp, WebAssembly), which
// takes about 35 MB of RSS for a quarter of a second; the flag avoids that once-only peak but left the parser on
// V8's baseline code, which cost the /rpc rows 0–10 µs of CPU per request in paired bench runs (docs/operations.md).

import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 200;

/** The flags, by name (as `--name` or `--no-name` on the command line overrides them). */
export const V8_SETTINGS: readonly { readonly name: string; readonly flag: string }[] = [
  { name: 'heap-growing-percent', flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}` },
  { name: 'allocation-site-pretenuring', flag: '--no-allocation-site-pretenuring' },
];

/** Whether the command line names the V8 flag `name` (dashes or underscores, with or without `no-`, with or without a value). */
export function named(execArgv: readonly string[], name: string): boolean {
  const canonical = name.replaceAll('_', '-');
  return execArgv.some((arg) => {
    const bare = arg.replace(/^--/, '').split('=', 1)[0]?.replaceAll('_', '-') ?? '';
    return bare === canonical || bare === `no-${canonical}`;
  });
}

/** Applies the settings the command line does not name; returns the flags applied. */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): string[] {
  const applied: string[] = [];
  for (const { name, flag } of V8_SETTINGS) {
    if (named(execArgv, name)) continue;
    setFlagsFromString(flag);
    applied.push(flag);
  }
  return applied;
}
