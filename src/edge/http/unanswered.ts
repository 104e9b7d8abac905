// The answers not yet sent, so that a drain can mark each one `Connection: close`.
// An array with swap-remove, not a Set: a Set's outgrown tables, once promoted, kept later requests alive (BENCHMARKS.md).

import type { ServerResponse } from 'node:http';

const slot = Symbol('unanswered slot');
type Tracked = ServerResponse & { [slot]?: number };

export class Unanswered {
  private readonly answers: Tracked[] = [];

  add(res: ServerResponse): void {
    (res as Tracked)[slot] = this.answers.push(res) - 1;
  }

  delete(res: ServerResponse): void {
    const index = (res as Tracked)[slot];
    if (index === undefined || this.answers[index] !== res) return;
    const last = this.answers.pop() as Tracked;
    if (last !== res) {
      this.answers[index] = last;
      last[slot] = index;
    }
    (res as Tracked)[slot] = undefined;
  }

  /** Takes every tracked answer out of the list, in no particular order. */
  drain(): ServerResponse[] {
    const all = this.answers.splice(0);
    for (const res of all) res[slot] = undefined;
    return all;
  }
}
