// The backend misbehaving, seen through the gateway: refused, silent, reset (before and during the answer),
// garbage, HTML, a body over limits.responseBytes, a trickle that outlasts upstream.timeoutMs, a head and then
// silence, a chunked answer cut mid-chunk. Every fault meets five kinds of client call: a streamed read at the head, a
// checked v1 read, a checked v1 write, a streamed v1 delete, and a v1 create whose migration first asks the
// backend (key lookup). Each case asserts the client's answer (a complete 502/504 problem, or a cut response:
// never a complete 200 with a truncated body), its timing, how many requests the upstream got (one attempt, no
// retries) and that no upstream connection is left waiting. test/edge/errors.test.ts covers these modes for a
// v2 getReport (and reset-mid-body, hang and refuse for some v1 calls); this is the full matrix.
// Last: clients that go away mid-request leave nothing behind upstream.

import { type EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type FaultMode, startFaultUpstream } from '../helpers/fault-upstream.js';
import { expectProblem } from '../helpers/http.js';
import { type ParsedResponse, type RawResult, post, rawExchange, within } from '../helpers/raw-socket.js';
import { responseHead, startScriptedUpstream } from '../helpers/scripted-upstream.js';
import { type Stack, startStack } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

const TIMEOUT_MS = 400;
const RESPONSE_BYTES = 1024;
/** Slack for the gateway's own scheduling on top of a deadline (2 cores, parallel test files). */
const MARGIN_MS = 1_000;
const REQUEST_DEADLINE = 5_000;

/** The upstream as the tests see it, whatever helper runs it. */
interface Upstream {
  readonly url: string;
  paths(): string[];
  /** Connections accepted minus connections closed. */
  open(): number;
  /** Open connections that have carried a request. */
  openUsed(): number;
  /** Emits 'request' and 'socket-close'. */
  readonly events: EventEmitter;
  close(): Promise<void>;
}

type Outcome = { kind: 'problem'; status: 502 | 504 } | { kind: 'cut' } | { kind: 'ok' };
const P502: Outcome = { kind: 'problem', status: 502 };
const P504: Outcome = { kind: 'problem', status: 504 };
const CUT: Outcome = { kind: 'cut' };
const OK: Outcome = { kind: 'ok' };

interface Call {
  readonly label: string;
  readonly method: string;
  readonly version: string;
  readonly body: Record<string, unknown>;
  /** The gateway buffers and checks the answer (v1 report methods). */
  readonly checked: boolean;
  /** A migration calls the backend before the call itself. */
  readonly lookup: boolean;
}
const CALLS: Call[] = [
  { label: 'a streamed getReport at the head', method: 'getReport', version: String(HEAD), body: { reportId: 'rep_f' }, checked: false, lookup: false },
  { label: 'a checked v1 getReport', method: 'getReport', version: '1', body: { reportId: 'rep_f' }, checked: true, lookup: false },
  { label: 'a checked v1 updateReport', method: 'updateReport', version: '1', body: { reportId: 'rep_f', description: 'd' }, checked: true, lookup: false },
  { label: 'a streamed v1 deleteReport', method: 'deleteReport', version: '1', body: { reportId: 'rep_f' }, checked: false, lookup: false },
  { label: 'a v1 createReport with a key lookup', method: 'createReport', version: '1', body: { key: 'nowhere/fault', config: {} }, checked: true, lookup: true },
];

/** A well-formed report answer (so that a lookup finds a workbook and a checked read passes), padded to `size` bytes. */
function reportAnswer(size = 0): string {
  const base = { id: 'rep_f', workbookId: 'wb_demo_sales', config: { pad: '' }, description: '', version: 1, legacyKey: 'nowhere/fault' };
  const empty = JSON.stringify(base).length;
  return JSON.stringify({ ...base, config: { pad: 'p'.repeat(Math.max(0, size - empty)) } });
}

interface Fault {
  readonly name: string;
  start(): Promise<Upstream>;
  /** What each call gets; and how many upstream requests it makes (default: 1, or 0 when refused). */
  expect(call: Call): Outcome;
  attempts?(call: Call): number;
  /** The answer can only come after upstream.timeoutMs. */
  readonly slow: boolean;
  readonly responseBytes?: number;
}

async function fault(mode: FaultMode, opts: Parameters<typeof startFaultUpstream>[1] = {}): Promise<Upstream> {
  const up = await startFaultUpstream(mode, opts);
  let closed = 0;
  up.events.on('socket-close', () => closed++);
  return { url: up.url, paths: () => up.requests.map((r) => r.path), open: () => up.connections - closed, openUsed: () => up.openUsed, events: up.events, close: () => up.close() };
}

async function scripted(script: Parameters<typeof startScriptedUpstream>[0]): Promise<Upstream> {
  const up = await startScriptedUpstream(script);
  return { url: up.url, paths: () => up.requests.map((r) => r.path), open: () => up.open, openUsed: () => up.openUsed, events: up.events, close: () => up.close() };
}

const streamedOr = (streamed: Outcome, checked: Outcome) => (call: Call) => (call.checked ? checked : streamed);

// A lookup (a migration's own backend call) that gets its head in time and then stalls is a timeout too: 504.
const FAULTS: Fault[] = [
  { name: 'refuses connections', start: () => fault('refuse'), expect: () => P502, attempts: () => 0, slow: false },
  { name: 'resets after the request', start: () => fault('reset'), expect: () => P502, slow: false },
  { name: 'answers bytes that are not HTTP', start: () => fault('garbage'), expect: () => P502, slow: false },
  { name: 'answers 200 with an HTML page', start: () => fault('html'), expect: () => P502, slow: false },
  { name: 'never answers', start: () => fault('hang'), expect: () => P504, slow: true },
  { name: 'answers only after the timeout', start: () => fault('slow', { delayMs: 5_000 }), expect: () => P504, slow: true },
  {
    name: 'resets mid-body (content-length 1000, 10 bytes sent)',
    start: () => fault('reset-mid-body'),
    // The lookup's answer is buffered by the backend client: broken, so 502.
    expect: (call) => (call.lookup ? P502 : streamedOr(CUT, P502)(call)),
    slow: false,
  },
  {
    name: 'cuts a chunked answer mid-chunk',
    start: () =>
      scripted(({ socket }) => {
        socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }) + '20\r\n{"id":"rep_f","workbookId":"wb_d', () =>
          socket.destroy(),
        );
      }),
    expect: (call) => (call.lookup ? P502 : streamedOr(CUT, P502)(call)),
    slow: false,
  },
  {
    name: 'trickles its answer, one byte every 40 ms, past the timeout',
    start: () =>
      scripted(({ socket, later }) => {
        const text = reportAnswer(200);
        socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }));
        let i = 0;
        const tick = () => {
          if (i >= text.length) return;
          socket.write(text[i++]!);
          later(40, tick);
        };
        tick();
      }),
    expect: (call) => (call.lookup ? P504 : streamedOr(CUT, P504)(call)),
    slow: true,
  },
  {
    name: 'sends its head and then nothing',
    start: () =>
      scripted(({ socket }) => {
        socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'content-length': 500 }));
      }),
    expect: (call) => (call.lookup ? P504 : streamedOr(CUT, P504)(call)),
    slow: true,
  },
  {
    name: `answers 5000 bytes, over limits.responseBytes (${RESPONSE_BYTES})`,
    start: () => fault('slow', { delayMs: 0, body: reportAnswer(5_000) }),
    // Streamed answers are not limited; a checked one is. The lookup (not limited) finds the workbook, then the create is checked.
    expect: streamedOr(OK, P502),
    attempts: (call) => (call.lookup ? 2 : 1),
    slow: false,
    responseBytes: RESPONSE_BYTES,
  },
];

/** A response is honest: a complete one is a well-formed JSON answer; an incomplete one ended with the connection. */
function expectHonest(result: RawResult): void {
  for (const r of result.responses) {
    if (r.complete) {
      expect(() => JSON.parse(r.bodyText), `a complete ${r.status} must carry its whole JSON body`).not.toThrow();
    } else {
      expect(['server', 'error']).toContain(result.closedBy);
    }
  }
}

describe.each(FAULTS)('a backend that $name', (f) => {
  let upstream: Upstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await f.start();
    stack = await startStack({
      upstreamUrl: upstream.url,
      config: { upstream: { timeoutMs: TIMEOUT_MS }, ...(f.responseBytes && { limits: { responseBytes: f.responseBytes } }) },
    });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  async function check(call: Call) {
    const outcome = f.expect(call);
    const before = upstream.paths().length;
    const deadlineMs = TIMEOUT_MS + MARGIN_MS + 1_000;
    const result = await rawExchange(stack.url, [post(`/rpc/${call.method}`, JSON.stringify(call.body), [['x-dl-api-version', call.version]])], {
      deadlineMs,
      responses: 1,
    });
    expect(result.closedBy, `no answer or close within ${deadlineMs} ms: ${JSON.stringify(result.raw.slice(0, 120))}`).not.toBe('deadline');
    expectHonest(result);
    const res: ParsedResponse | undefined = result.responses[0];

    if (outcome.kind === 'problem') {
      expect(res, 'a problem answer').toBeDefined();
      const details = expectProblem(res!, outcome.status, outcome.status === 502 ? 'UPSTREAM_UNAVAILABLE' : 'UPSTREAM_TIMEOUT');
      expect(res!.headers['x-dl-api-version']).toBe(call.version);
      if (outcome.status === 504) expect(details.timeoutMs).toBe(TIMEOUT_MS);
      else expect(details.reason).toEqual(expect.any(String));
      // The backend's page never reaches the client.
      expect(res!.bodyText).not.toContain('please sign in');
    } else if (outcome.kind === 'cut') {
      // Headers were on their way when the backend failed: the answer must end with the connection, incomplete.
      expect(result.closedBy).not.toBe('enough');
      for (const r of result.responses) expect(r.complete, `status ${r.status} answer must be cut`).toBe(false);
    } else {
      expect(res!.status).toBe(200);
      expect(res!.complete).toBe(true);
      expect(JSON.parse(res!.bodyText)).toEqual(JSON.parse(reportAnswer(5_000)));
    }

    // Timing: a timeout is the configured one; everything else is quick.
    if (f.slow) {
      expect(result.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(result.elapsedMs).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    } else {
      expect(result.elapsedMs).toBeLessThan(MARGIN_MS);
    }

    // What the upstream got: exactly the attempts expected, to the right paths; no retries.
    const attempts = f.attempts ? f.attempts(call) : 1;
    const seen = upstream.paths().slice(before);
    expect(seen).toHaveLength(attempts);
    if (attempts > 0) expect(seen[0]).toBe(call.lookup ? '/rpc/resolveLegacyKey' : `/rpc/${call.method}`);

    // Nothing left waiting upstream after a timeout: the gateway closed the connection it gave up on.
    if (f.slow) {
      await until(upstream.events, 'socket-close', () => upstream.openUsed() === 0, 'the connection given up on to close', 1_000);
      // undici (7.30) reconnects once after an aborted request and keeps that fresh connection idle in the
      // pool (nodejs/undici#5845): at most one connection may stay, and it has carried no request.
      expect(upstream.open()).toBeLessThanOrEqual(1);
    }
  }

  it.each(CALLS)('gives $label a bounded, honest answer and makes one attempt upstream', check);
});

describe('answers never mix up across reused upstream connections', () => {
  // Requests for "slow_*" reports get a head and half a body, then silence (so the gateway gives up on that
  // connection mid-answer); every other request is answered at once with its own report id. If a connection
  // the gateway gave up on went back to the keep-alive pool, a later request would read the stale half-answer.
  let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startScriptedUpstream(({ socket, request }) => {
      const id = (JSON.parse(request.body) as { reportId: string }).reportId;
      const text = JSON.stringify({ id, workbookId: 'wb_demo_sales', config: {}, description: `answer for ${id}`, version: 1 });
      const head = responseHead('200 OK', { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      socket.write(id.startsWith('slow_') ? head + text.slice(0, 20) : head + text);
    });
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: TIMEOUT_MS } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('40 concurrent calls, a quarter of them cut: each answered call gets its own report, each call is sent once', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => ({ id: `${i % 4 === 0 ? 'slow' : 'fast'}_${i}`, version: i % 2 ? '1' : String(HEAD) }));
    const before = upstream.requests.length;
    const outcomes = await Promise.all(
      calls.map(({ id, version }) =>
        within(
          TIMEOUT_MS + MARGIN_MS + 2_000,
          fetch(`${stack.url}/rpc/getReport`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-dl-api-version': version },
            body: JSON.stringify({ reportId: id }),
          }).then(
            async (res) => ({ status: res.status, text: await res.text().catch(() => 'CUT') }),
            () => ({ status: 0, text: 'CUT' }),
          ),
        ),
      ),
    );
    calls.forEach(({ id, version }, i) => {
      const o = outcomes[i]!;
      if (id.startsWith('fast_')) {
        expect(o.status, id).toBe(200);
        expect(JSON.parse(o.text), id).toMatchObject({ id, description: `answer for ${id}` });
      } else if (version === '1') {
        expect(o.status, id).toBe(504);
      } else {
        expect(o.text, id).toBe('CUT');
      }
    });
    const sent = upstream.requests.slice(before).map((r) => (JSON.parse(r.body) as { reportId: string }).reportId);
    expect(sent.sort()).toEqual(calls.map((c) => c.id).sort());
    // And afterwards, on whatever connections are left: still the right answers.
    for (let i = 0; i < 10; i++) {
      const res = await within(REQUEST_DEADLINE, fetch(`${stack.url}/rpc/getReport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': String(1 + (i % 2)) },
        body: JSON.stringify({ reportId: `after_${i}` }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string } })));
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(`after_${i}`);
    }
  });
});

// A migration's own backend call reads its answer whole, up to 10 MiB (adapters/backend-client.ts): past that, 502.
describe('a key lookup whose answer is over 10 MiB', () => {
  let upstream: Upstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await fault('slow', { delayMs: 0, body: reportAnswer(10 * 1024 * 1024 + 1) });
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 10_000 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('is refused with 502, and the create is never forwarded', async () => {
    const lookup = CALLS.find((c) => c.lookup) as Call;
    const result = await rawExchange(stack.url, [post(`/rpc/${lookup.method}`, JSON.stringify(lookup.body), [['x-dl-api-version', lookup.version]])], {
      deadlineMs: REQUEST_DEADLINE,
      responses: 1,
    });
    const res = result.responses[0] as ParsedResponse;
    expect(expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE').reason).toBe('backend answer too large');
    expect(upstream.paths()).toEqual(['/rpc/resolveLegacyKey']);
  });
});

describe('clients that go away mid-request', () => {
  /** An upstream that answers resolveLegacyKey after 300 ms, trickles getReport "trickle", and never answers anything else. */
  let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startScriptedUpstream(({ socket, request, later }) => {
      if (request.path === '/rpc/resolveLegacyKey') {
        const text = JSON.stringify({ workbookId: 'wb_demo_sales', legacyFolderKey: 'slow/' });
        later(300, () => socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }) + text));
      } else if (request.path === '/rpc/getReport' && request.body.includes('trickle')) {
        // A trickled answer: head at once, then one byte every 50 ms.
        const text = reportAnswer(2_000);
        socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }));
        let i = 0;
        const tick = () => {
          if (i < text.length) {
            socket.write(text[i++]!);
            later(50, tick);
          }
        };
        tick();
      }
      // Anything else: no answer.
    });
    // A long timeout, so that "closed soon after the client left" cannot be the timeout.
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 10_000 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  /** Sends `parts`, waits for the upstream to receive `arrive` (a path), then destroys the client socket. */
  async function leaveAfter(parts: (string | Buffer)[], arrive: string | undefined, pauseMs = 0) {
    const url = new URL(stack.url);
    const { connect } = await import('node:net');
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    const arrived = arrive ? within(3_000, new Promise<void>((resolve) => {
      const on = (r: { path: string }) => {
        if (r.path === arrive) {
          upstream.events.off('request', on);
          resolve();
        }
      };
      upstream.events.on('request', on);
    }), `upstream receiving ${arrive}`) : Promise.resolve();
    for (const p of parts) socket.write(p);
    await arrived;
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    socket.destroy();
  }

  it('a client that leaves mid-body: the upstream never sees a request', async () => {
    const before = upstream.requests.length;
    const connectionsBefore = upstream.connections;
    const full = post('/rpc/updateReport', JSON.stringify({ reportId: 'rep_f', description: 'never complete' }), [['x-dl-api-version', '1']]);
    await leaveAfter([full.subarray(0, full.length - 10)], undefined, 100);
    // Give the gateway a moment in which a (wrong) forward would happen.
    await new Promise((r) => setTimeout(r, 200));
    expect(upstream.requests.length).toBe(before);
    expect(upstream.connections).toBe(connectionsBefore);
  });

  // forwarding.test.ts proves this for a backend that has not answered yet; here the answer has started.
  it.each([String(HEAD), '1'])('a client that leaves during a trickled v%s answer: the upstream socket closes soon after', async (version) => {
    const closed = once(upstream.events, 'socket-close');
    await leaveAfter([post('/rpc/getReport', JSON.stringify({ reportId: 'trickle' }), [['x-dl-api-version', version]])], '/rpc/getReport', 150);
    await within(1_000, closed, 'the upstream connection closing');
    expect(upstream.open).toBe(0);
  });

  it('a client that leaves while a migration\'s key lookup is pending: the create is never forwarded', async () => {
    const before = upstream.requests.length;
    await leaveAfter([post('/rpc/createReport', JSON.stringify({ key: 'slow/never-created', config: {} }), [['x-dl-api-version', '1']])], '/rpc/resolveLegacyKey');
    // The lookup answers 300 ms after it arrived; wait past that for a (wrong) forward of the create.
    await new Promise((r) => setTimeout(r, 600));
    expect(upstream.requests.slice(before).map((r) => r.path)).toEqual(['/rpc/resolveLegacyKey']);
  });

  // A migration's own backend call is tied to the client's request: it ends when the client leaves.
  it('a client that leaves while a migration\'s key lookup hangs: the lookup\'s upstream connection closes soon after', async () => {
    const hang = await startFaultUpstream('hang');
    const hangStack = await startStack({ upstreamUrl: hang.url, config: { upstream: { timeoutMs: 10_000 } } });
    try {
      const arrived = once(hang.events, 'request');
      const controller = new AbortController();
      const pending = fetch(`${hangStack.url}/rpc/createReport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '1' },
        body: JSON.stringify({ key: 'hang/x', config: {} }),
        signal: controller.signal,
      }).catch((e: unknown) => e);
      await within(3_000, arrived, 'the lookup reaching the backend');
      const closed = once(hang.events, 'socket-close');
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      await within(1_500, closed, 'the lookup\'s upstream connection closing');
    } finally {
      await hangStack.close();
      await hang.close();
    }
  });
});
