// Waits, event by event, for a condition to hold: the tests' replacement for polling with sleeps.

import type { EventEmitter } from 'node:events';

/**
 * Resolves once `check()` holds, checking now and after each `event` on `emitter`; rejects after
 * `withinMs` (a bound against a hang, not a timing under test) saying what was awaited.
 */
export function until(emitter: EventEmitter, event: string, check: () => boolean, what: string, withinMs = 5_000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onEvent = () => {
      if (!check()) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what}: not within ${withinMs} ms`));
    }, withinMs);
    const done = () => {
      clearTimeout(timer);
      emitter.off(event, onEvent);
    };
    emitter.on(event, onEvent);
  });
}
