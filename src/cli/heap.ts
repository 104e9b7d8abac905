// V8 settings `serve` applies at start-up (BENCHMARKS.md, 2026-11-23 and 2026-11-26; docs/operations.md, "Size memory").
// Each is set at run time, so it holds however Node is started; the same flag on the command line (either
// polarity, e.g. --allocation-site-pretenuring to undo --no-allocation-site-pretenuring) wins.
//
// - --heap-growing-percent=100: the heap grows to about twice the live heap before a full collection, not V8's 4×: a
//   peak RSS 6-13 MB below 200's, for a full collection in a few more rounds of a streamed 500 KiB read (still fewer
//   than the bare proxy's; BENCHMARKS.md, "Peak RSS at 100 and 200, again").
// - --no-allocation-site-pretenuring: V8 marks an allocation site "tenured" once most objects made there outlive a
//   scavenge, and from then on allocates them straight in the old generation. After a few seconds of /rpc traffic
//   (32 connections, requests in flight at every scavenge) sites the web pass-through shares get tenured, and each
//   of its requests then leaves its garbage in the old generation: about 40 MB and 5–10 full collections per
//   five-second bench round, against none with the decisions off (BENCHMARKS.md, 2026-11-26, issue 25).
//
// - --no-memory-reducer: once V8's memory reducer judges the process idle (little allocation on the JavaScript heap,
//   as when large answers stream: their bytes live outside it), V8 starts full collections far below the heap's
//   limit, over and over, freeing almost nothing: on Node 20 the streamed 500 KiB read had 1–9 full collections per
//   five-second round with it and none without (BENCHMARKS.md, "The memory reducer"). On Node 24 that read's full
//   collections have another cause (external memory pressure) and the setting changed nothing measurable.
//
// Not set: --liftoff-only. On the first upstream call V8 optimises undici's HTTP parser (llhttp, WebAssembly), which
// takes about 35 MB of RSS for a quarter of a second; the flag avoids that once-only peak but left the parser on
// V8's baseline code, which cost the /rpc rows 0–10 µs of CPU per request in paired bench runs (docs/operations.md).

import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

/** The flags, by name (as `--name` or `--no-name` on the command line overrides them). */
export const V8_SETTINGS: readonly { readonly name: string; readonly flag: string }[] = [
  { name: 'heap-growing-percent', flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}` },
  { name: 'allocation-site-pretenuring', flag: '--no-allocation-site-pretenuring' },
  { name: 'memory-reducer', flag: '--no-memory-reducer' },
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
