// The drain's list of answers not yet sent: every answer added and not yet removed comes out of drain(), once.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Unanswered } from '../../src/edge/http/unanswered.js';

const answer = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('Unanswered', () => {
  it('drains exactly the answers that were added and not removed, whatever the order of removal', () => {
    const list = new Unanswered();
    const answers = Array.from({ length: 50 }, answer);
    for (const res of answers) list.add(res);
    // Remove from the middle, the end and the start, and one twice.
    const removed = new Set([answers[25], answers[49], answers[0], answers[10], answers[48]]);
    for (const res of removed) list.delete(res as ServerResponse);
    list.delete(answers[10] as ServerResponse);
    const drained = list.drain();
    expect(new Set(drained)).toEqual(new Set(answers.filter((res) => !removed.has(res))));
    expect(drained).toHaveLength(45);
    expect(list.drain()).toEqual([]);
  });

  it('ignores an answer that was never added, and takes back one added again after removal', () => {
    const list = new Unanswered();
    const [a, b, stranger] = [answer(), answer(), answer()];
    list.add(a);
    list.add(b);
    list.delete(stranger);
    list.delete(a);
    list.add(a);
    expect(new Set(list.drain())).toEqual(new Set([a, b]));
  });
});
