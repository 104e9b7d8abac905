// How far V8 lets the heap grow before a full collection.
//
// By default V8 grows the old generation up to about 4× the live heap when collections are cheap, as
// they are here (the gateway's live heap is about 20 MB): under load that alone took the process past
// 180 MB of RSS. Growing by 2× keeps it near 140 MB at about the same CPU per request (BENCHMARKS.md).
// The flag is read each time V8 sizes the heap, so setting it at start-up takes effect; a value given on
// the command line (node --heap-growing-percent=N) wins. It cannot be set through NODE_OPTIONS.

import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function tuneHeap(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
