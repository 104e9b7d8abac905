// "The client went away before its answer was complete", told to whoever is working on its behalf.
// Plain, not an AbortController per request (which costs on the hot path, BENCHMARKS.md): a signal only when asked.

import type { ClientDeparture } from '../../ports/upstream.js';

export class Departure implements ClientDeparture {
  private left = false;
  private listeners: (() => void)[] | undefined;
  private controller: AbortController | undefined;

  get gone(): boolean {
    return this.left;
  }

  /** Runs `fn` when the client leaves (at once if it has left already). */
  onGone(fn: () => void): void {
    if (this.left) fn();
    else (this.listeners ??= []).push(fn);
  }

  /** An AbortSignal that aborts when the client leaves. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.left) this.controller.abort();
    }
    return this.controller.signal;
  }

  leave(): void {
    if (this.left) return;
    this.left = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const fn of listeners) fn();
    this.controller?.abort();
  }
}
