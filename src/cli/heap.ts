// How far V8 lets the heap grow before a full collection: 2× the live heap, not V8's 4×, for a smaller RSS (BENCHMARKS.md).
// Set at start-up (V8 reads it whenever it sizes the heap); a --heap-growing-percent on the command line wins.

import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function tuneHeap(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
