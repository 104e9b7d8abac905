// Nothing is lost and no web-UI edit is overwritten, under concurrency. fast-check draws schedules of 300
// operations over 5 reports, run by 4–8 concurrent workers:
//   - a v1 client's updateReport through the gateway (x-dl-api-version: 1),
//   - a web-UI edit straight on the backend (no x-dl-client-api-version: saved under the head), on reports 0–2 only,
//   - a v1 getReport and a getReport at the head through the gateway.
// Each write carries a unique description, and every operation records its real-time interval [start, end]
// (the backend applies it somewhere inside). The oracle checks, per report:
//   1. UI edits always succeed; a v1 write or read that starts after a UI edit ended is refused with 409
//      UNSUPPORTED_OBJECT_VERSION, and a 409 only happens if some UI edit started before it ended;
//   2. every successful read returns a value some accepted write (or the creation) could have left: that write
//      began before the read ended and no other accepted write fits wholly between them (a regular register);
//      a v1 read never returns a UI-written value;
//   3. the final state (read at the head on the backend) is the value of an accepted write that no other accepted write
//      follows; on a report the UI edited it is a UI value at version 2 (no old client overwrote it);
//   4. the backend saw exactly one request per operation, each acting for the right client version, and each
//      v1 write's body exactly once (no retries, no extra calls, nothing dropped).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';
import { type BackendTap, type SeenRequest, createV1Report, tapBackend } from '../helpers/hostile.js';
import { within } from '../helpers/raw-socket.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const REPORTS = 5;
/** Reports the web UI may edit; the others stay v1 objects for the whole run. */
const UI_REPORTS = 3;
const OPS = 300;
const DEADLINE_MS = 5_000;

type Kind = 'v1-write' | 'ui-write' | 'v1-read' | 'head-read';
interface Op {
  readonly kind: Kind;
  readonly report: number;
}
interface Done extends Op {
  readonly index: number;
  /** The description a write sets (unique per run and op). */
  readonly value?: string;
  readonly start: number;
  readonly end: number;
  readonly status: number;
  readonly body: any;
}
/** An accepted write (or the creation) with its interval. */
interface Write {
  readonly value: string;
  readonly start: number;
  readonly end: number;
  readonly ui: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 40, arbitrary: fc.record({ kind: fc.constant<Kind>('v1-write'), report: fc.integer({ min: 0, max: REPORTS - 1 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant<Kind>('ui-write'), report: fc.integer({ min: 0, max: UI_REPORTS - 1 }) }) },
  { weight: 30, arbitrary: fc.record({ kind: fc.constant<Kind>('v1-read'), report: fc.integer({ min: 0, max: REPORTS - 1 }) }) },
  { weight: 27, arbitrary: fc.record({ kind: fc.constant<Kind>('head-read'), report: fc.integer({ min: 0, max: REPORTS - 1 }) }) },
);

let stack: Stack;
let tap: BackendTap;
let run = 0;

beforeAll(async () => {
  stack = await startStack();
  tap = tapBackend(stack);
});
afterAll(async () => {
  tap.stop();
  await stack.close();
});

async function uiEdit(reportId: string, description: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.backendUrl}/rpc/updateReport`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
    // The UI also moves it out of the workbook its v1 key names (reports/sales/… → Marketing): version 1 cannot read
    // it whole, so the lossless rule refuses it to v1 reads as the strict rule would.
    body: JSON.stringify({ reportId, [REPORT_DESCRIPTION]: description, workbookId: 'wb_demo_marketing' }),
  });
  return { status: res.status, body: await res.json() };
}

async function perform(op: Op, index: number, ids: readonly string[], tag: string): Promise<Done> {
  const reportId = ids[op.report] as string;
  const value = op.kind === 'v1-write' || op.kind === 'ui-write' ? `${op.kind}:${tag}:${index}` : undefined;
  const start = performance.now();
  const call =
    op.kind === 'ui-write'
      ? uiEdit(reportId, value as string)
      : op.kind === 'v1-write'
        ? rpc(stack.url, 'updateReport', { reportId, description: value }, '1')
        : rpc(stack.url, 'getReport', { reportId }, op.kind === 'v1-read' ? '1' : String(HEAD));
  const res = await within(DEADLINE_MS, call, `op ${index} (${op.kind} on report ${op.report})`);
  return { ...op, index, value, start, end: performance.now(), status: res.status, body: res.body };
}

/** Runs the ops in order of issue with `concurrency` workers; answers them in issue order. */
async function schedule(ops: readonly Op[], concurrency: number, ids: readonly string[], tag: string): Promise<Done[]> {
  const done: Done[] = new Array(ops.length);
  let next = 0;
  const worker = async () => {
    while (next < ops.length) {
      const i = next++;
      done[i] = await perform(ops[i] as Op, i, ids, tag);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done;
}

/** A read that returned `value` is explained by an accepted write (regular-register semantics). */
function explains(value: string, read: { start: number; end: number }, writes: readonly Write[]): string | undefined {
  const w = writes.find((x) => x.value === value);
  if (!w) return `read ${JSON.stringify(value)}, which no accepted write wrote`;
  if (!(w.start < read.end)) return `read ${JSON.stringify(value)} before its write began`;
  const between = writes.find((x) => x !== w && w.end < x.start && x.end < read.start);
  if (between) return `read ${JSON.stringify(value)} although ${JSON.stringify(between.value)} was written wholly after it and before the read`;
  return undefined;
}

/** The description a read shows: version 1's name for a v1 read, the head's otherwise. */
const descriptionOf = (kind: Kind, body: any): string => body[kind === 'v1-read' ? 'description' : REPORT_DESCRIPTION];

function checkReport(report: number, reportId: string, done: readonly Done[], creation: Write, final: any): string[] {
  const problems: string[] = [];
  const mine = done.filter((d) => d.report === report);
  const ui = mine.filter((d) => d.kind === 'ui-write');
  for (const u of ui) if (u.status !== 200) problems.push(`ui edit #${u.index} answered ${u.status}`);
  const accepted: Write[] = [
    creation,
    ...mine
      .filter((d) => (d.kind === 'v1-write' || d.kind === 'ui-write') && d.status === 200)
      .map((d) => ({ value: d.value as string, start: d.start, end: d.end, ui: d.kind === 'ui-write' })),
  ];
  const uiEndedBefore = (t: number) => ui.some((u) => u.end < t);
  const uiStartedBefore = (t: number) => ui.some((u) => u.start < t);

  for (const d of mine) {
    const where = `#${d.index} ${d.kind}`;
    if (d.kind === 'v1-write' || d.kind === 'v1-read') {
      if (d.status === 200) {
        if (uiEndedBefore(d.start)) problems.push(`${where} succeeded although a UI edit had ended before it started`);
        if (d.body.version !== 1) problems.push(`${where} answered an object at version ${d.body.version}`);
      } else if (d.status === 409) {
        if (d.body?.code !== 'UNSUPPORTED_OBJECT_VERSION') problems.push(`${where} 409 with code ${d.body?.code}`);
        else if (d.body.details?.objectVersion !== HEAD || d.body.details?.objectId !== reportId) problems.push(`${where} 409 details ${JSON.stringify(d.body.details)}`);
        if (!uiStartedBefore(d.end)) problems.push(`${where} refused with 409 although no UI edit had started`);
      } else {
        problems.push(`${where} answered ${d.status} ${JSON.stringify(d.body).slice(0, 200)}`);
      }
    }
    if (d.kind === 'head-read' && d.status !== 200) problems.push(`${where} answered ${d.status}`);
    if ((d.kind === 'v1-read' || d.kind === 'head-read') && d.status === 200) {
      const value = descriptionOf(d.kind, d.body);
      const why = explains(value, d, accepted);
      if (why) problems.push(`${where}: ${why}`);
      if (d.kind === 'v1-read' && accepted.find((w) => w.value === value)?.ui) problems.push(`${where}: a v1 read returned the UI value ${value}`);
      if (d.kind === 'head-read') {
        const fromUi = !!accepted.find((w) => w.value === value)?.ui;
        if (d.body.version !== (fromUi ? HEAD : 1)) problems.push(`${where}: version ${d.body.version} for ${value}`);
      }
    }
  }

  // The final state: the value of an accepted write that no other accepted write follows.
  const finalValue = descriptionOf('head-read', final);
  const last = accepted.find((w) => w.value === finalValue);
  if (!last) problems.push(`final description ${JSON.stringify(finalValue)} was never accepted`);
  else if (accepted.some((x) => x !== last && last.end < x.start)) problems.push(`final ${JSON.stringify(finalValue)} was overwritten by a later accepted write, then lost`);
  if (ui.length > 0) {
    if (final.version !== HEAD) problems.push(`UI-edited report ends at version ${final.version}`);
    if (!last?.ui) problems.push(`a UI-edited report ends with the old client's value ${JSON.stringify(finalValue)}`);
  } else if (final.version !== 1) {
    problems.push(`a report the UI never touched ends at version ${final.version}`);
  }
  return problems;
}

/** What the backend saw during a run: one request per operation, acting for the right version. */
function checkBackend(seen: readonly SeenRequest[], done: readonly Done[], ids: readonly string[]): string[] {
  const problems: string[] = [];
  if (seen.length !== done.length) problems.push(`backend saw ${seen.length} requests for ${done.length} operations`);
  for (const d of done) {
    if (d.kind === 'v1-write' || d.kind === 'ui-write') {
      const hits = seen.filter((s) => s.url === '/rpc/updateReport' && s.body.includes(`"${d.value}"`));
      if (hits.length !== 1) problems.push(`#${d.index} ${d.kind} reached the backend ${hits.length} times`);
      const client = hits[0]?.headers['x-dl-client-api-version'];
      if (d.kind === 'v1-write' && client !== '1') problems.push(`#${d.index} v1 write acted for ${client}`);
      if (d.kind === 'ui-write' && client !== undefined) problems.push(`#${d.index} ui edit acted for ${client}`);
      if (d.kind === 'v1-write' && hits[0] && JSON.parse(hits[0].body).reportId !== ids[d.report]) problems.push(`#${d.index} went to another report`);
    }
  }
  ids.forEach((id, report) => {
    for (const [kind, version] of [
      ['v1-read', '1'],
      ['head-read', String(HEAD)],
    ] as const) {
      const expected = done.filter((d) => d.kind === kind && d.report === report).length;
      const got = seen.filter((s) => s.url === '/rpc/getReport' && s.headers['x-dl-client-api-version'] === version && JSON.parse(s.body).reportId === id).length;
      if (got !== expected) problems.push(`report ${report}: ${expected} ${kind}s, backend saw ${got}`);
    }
  });
  return problems;
}

describe('concurrent v1 clients, head-version clients and web-UI edits', () => {
  it('never lose an accepted write and never let an old client overwrite a UI edit (fast-check schedules)', async () => {
    const totals = { ops: 0, accepted: 0, refused: 0, uiEdits: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: OPS, maxLength: OPS }), fc.integer({ min: 4, max: 8 }), async (ops, concurrency) => {
        const tag = `r${++run}`;
        const ids: string[] = [];
        const creations: Write[] = [];
        for (let r = 0; r < REPORTS; r++) {
          const start = performance.now();
          ids.push(await createV1Report(stack, `reports/sales/nothing-lost-${tag}-${r}`, { description: `created:${tag}:${r}` }));
          creations.push({ value: `created:${tag}:${r}`, start, end: performance.now(), ui: false });
        }
        const mark = tap.mark();
        const done = await schedule(ops, concurrency, ids, tag);
        const seen = tap.since(mark);

        const problems = checkBackend(seen, done, ids);
        for (let r = 0; r < REPORTS; r++) {
          const final = await within(
            DEADLINE_MS,
            fetch(`${stack.backendUrl}/rpc/getReport`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
              body: JSON.stringify({ reportId: ids[r] }),
            }).then((res) => res.json()),
          );
          problems.push(...checkReport(r, ids[r] as string, done, creations[r] as Write, final).map((p) => `report ${r}: ${p}`));
          // And through the gateway at the head: the same final value.
          const viaGateway = await within(DEADLINE_MS, rpc(stack.url, 'getReport', { reportId: ids[r] }, String(HEAD)));
          if (descriptionOf('head-read', viaGateway.body) !== descriptionOf('head-read', final)) problems.push(`report ${r}: gateway and backend disagree`);
        }
        totals.ops += done.length;
        totals.accepted += done.filter((d) => d.kind === 'v1-write' && d.status === 200).length;
        totals.refused += done.filter((d) => d.status === 409).length;
        totals.uiEdits += done.filter((d) => d.kind === 'ui-write').length;
        expect(problems, `concurrency ${concurrency}`).toEqual([]);
      }),
      { numRuns: 8, endOnFailure: true },
    );
    // The schedules exercised both sides of the guard.
    expect(totals.ops).toBe(8 * OPS);
    expect(totals.accepted).toBeGreaterThan(100);
    expect(totals.refused).toBeGreaterThan(50);
    expect(totals.uiEdits).toBeGreaterThan(20);
  }, 120_000);
});

describe('the oracle itself', () => {
  /** The head's name for a report's description (what head reads and the final state show). */
  const D = REPORT_DESCRIPTION;
  // Synthetic histories on one report (times in ms), so a broken guard could not pass unnoticed.
  const id = 'rep_oracle';
  const creation: Write = { value: 'created', start: 0, end: 1, ui: false };
  const op = (index: number, kind: Kind, start: number, end: number, status: number, body: any, value?: string): Done => ({
    kind,
    report: 0,
    index,
    start,
    end,
    status,
    body,
    ...(value !== undefined && { value }),
  });
  const refused = { code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: id, objectVersion: HEAD } };

  it('accepts a correct history', () => {
    const done = [
      op(0, 'v1-write', 10, 20, 200, { version: 1 }, 'a'),
      op(1, 'ui-write', 30, 40, 200, { version: HEAD }, 'u'),
      op(2, 'v1-write', 50, 60, 409, refused, 'b'),
      op(3, 'v1-read', 50, 60, 409, refused),
      op(4, 'head-read', 70, 80, 200, { [D]: 'u', version: HEAD }),
    ];
    expect(checkReport(0, id, done, creation, { [D]: 'u', version: HEAD })).toEqual([]);
  });

  it.each([
    ['an old client overwriting a finished UI edit', [op(0, 'ui-write', 10, 20, 200, {}, 'u'), op(1, 'v1-write', 30, 40, 200, { version: 1 }, 'b')], { [D]: 'b', version: 1 }],
    ['a v1 read served after a UI edit', [op(0, 'ui-write', 10, 20, 200, {}, 'u'), op(1, 'v1-read', 30, 40, 200, { description: 'u', version: 1 })], { [D]: 'u', version: HEAD }],
    ['a refusal without a UI edit', [op(0, 'v1-write', 10, 20, 409, refused, 'a')], { [D]: 'created', version: 1 }],
    ['a lost write (stale read)', [op(0, 'v1-write', 10, 20, 200, { version: 1 }, 'a'), op(1, 'head-read', 30, 40, 200, { [D]: 'created', version: 1 })], { [D]: 'a', version: 1 }],
    ['a lost write (final state)', [op(0, 'v1-write', 10, 20, 200, { version: 1 }, 'a')], { [D]: 'created', version: 1 }],
    ['a value nobody wrote', [op(0, 'head-read', 10, 20, 200, { [D]: 'ghost', version: 1 })], { [D]: 'created', version: 1 }],
  ] as [string, Done[], any][])('flags %s', (_label, done, final) => {
    expect(checkReport(0, id, done, creation, final).length).toBeGreaterThan(0);
  });
});
