// Load generation: closed-loop maximum-throughput runs with autocannon, and an open-loop paced run at a
// fixed request rate for latency under moderate load.

import autocannon from 'autocannon';
import { request } from 'node:http';
import { type Socket, connect } from 'node:net';

export interface Target {
  /** Short row name, e.g. "gw-v1-get". */
  readonly name: string;
  readonly description: string;
  /** Full URL, e.g. http://127.0.0.1:PORT/rpc/getReport. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** POST by default; a GET sends no body. */
  readonly method?: 'GET' | 'POST';
  /** Each request with a credential of its own (a caller the gateway has never seen); closed-loop runs only. */
  readonly freshCaller?: boolean;
  /** The closed-loop runs' connections for this row (absent: the run's --connections); for a row whose backend is slow. */
  readonly connections?: number;
}

export interface RunResult {
  /** Completed responses per second. */
  readonly rps: number;
  /** Milliseconds, from the client's own sub-millisecond timings. */
  readonly p50: number;
  readonly p99: number;
  /** Connection errors + timeouts + non-2xx answers. */
  readonly errors: number;
  readonly responses: number;
  /** Answers by status code (e.g. {"200": 51234}). */
  readonly statuses: Readonly<Record<string, number>>;
}

/** Latencies in a growable Float64Array (no per-sample allocation on the load generator's hot path). */
class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  percentiles(...ps: number[]): number[] {
    if (this.length === 0) return ps.map(() => Number.NaN);
    const sorted = this.data.slice(0, this.length).sort();
    return ps.map((p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number);
  }
}

/** The median of rounds (bench/verdict.ts, with the other statistics). */
export { median } from './verdict.js';

export interface BlastOptions {
  readonly connections: number;
  readonly durationS: number;
  /** autocannon's overallRate (requests per second over all connections); see paced() for its limits. */
  readonly overallRate?: number;
}

let callers = 0;
/** autocannon's per-request hook: a new bearer credential every time. */
function freshCaller<R extends { headers?: Record<string, string> }>(request: R): R {
  return { ...request, headers: { ...request.headers, authorization: `Bearer bench-fresh-${++callers}` } };
}

/** As many requests as `connections` keep-alive connections (pipelining 1) can push for `durationS` seconds. */
export function blast(target: Target, options: BlastOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const samples = new Samples();
    let bad = 0;
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'POST',
        headers: { ...target.headers },
        ...(target.method !== 'GET' && { body: target.body }),
        connections: options.connections,
        pipelining: 1,
        duration: options.durationS,
        timeout: 10,
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        ...(target.freshCaller && { requests: [{ setupRequest: freshCaller }] }),
      },
      (error, result) => {
        if (error) return reject(error);
        const [p50, p99] = samples.percentiles(50, 99);
        const statuses: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = count;
        const responses = samples.length;
        resolve({
          rps: result.duration > 0 ? responses / result.duration : 0,
          p50: p50 as number,
          p99: p99 as number,
          errors: result.errors + bad,
          responses,
          statuses,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      samples.push(responseTime);
      if (statusCode < 200 || statusCode > 299) bad++;
    });
  });
}

export interface PacedOptions {
  /** Requests per second, spread evenly (a due-time schedule checked every millisecond). */
  readonly rate: number;
  readonly durationS: number;
  /** Keep-alive connections available (requests queue for a free one beyond that). */
  readonly connections: number;
}

export interface PacedResult extends RunResult {
  /** The rate asked for. */
  readonly rate: number;
  /** 99th percentile of how late requests were sent against their schedule (ms): the generator's own noise. */
  readonly sendLagP99: number;
  /** Time from the last scheduled send to the last answer (ms): large when the target fell behind the rate. */
  readonly drainMs: number;
  /** Requests not sent because the target was too far behind (see maxBacklog). */
  readonly dropped: number;
}

/** A keep-alive client connection that sends a prebuilt request and parses just enough of the answer. */
class RawConnection {
  private socket: Socket;
  private pending: Buffer = Buffer.alloc(0);
  private state: 'idle' | 'head' | 'body' | 'chunk-size' | 'chunk' | 'trailer' = 'idle';
  private remaining = 0;
  private status = 0;
  private sentAt = 0;
  connected = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    /** (latency ms, status) for an answer; (NaN, 0) for a broken exchange. */
    private readonly onAnswer: (connection: RawConnection, latencyMs: number, status: number) => void,
    private readonly onReady: (connection: RawConnection) => void,
  ) {
    this.socket = this.open();
  }

  get busy(): boolean {
    return this.state !== 'idle';
  }

  send(request: Buffer): void {
    this.state = 'head';
    this.pending = Buffer.alloc(0);
    this.sentAt = performance.now();
    this.socket.write(request);
  }

  destroy(): void {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }

  private open(): Socket {
    const socket = connect(this.port, this.host);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      this.connected = true;
      this.onReady(this);
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.connected = false;
      if (this.state !== 'idle') {
        this.state = 'idle';
        this.onAnswer(this, Number.NaN, 0);
      }
      this.socket = this.open(); // the server closed it (or it broke): reconnect
    });
    return socket;
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'idle') return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.state === 'head') {
        const end = this.pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = this.pending.toString('latin1', 0, end);
        this.pending = this.pending.subarray(end + 4);
        this.status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
        if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) this.state = 'chunk-size';
        else if (length) {
          this.state = 'body';
          this.remaining = Number(length[1]);
        } else if (this.status === 204 || this.status === 304) {
          this.state = 'body';
          this.remaining = 0;
        } else {
          this.socket.destroy(); // a close-delimited body: not used by the servers measured here
          return;
        }
      } else if (this.state === 'body' || this.state === 'chunk') {
        const take = Math.min(this.remaining, this.pending.length);
        this.remaining -= take;
        this.pending = this.pending.subarray(take);
        if (this.remaining > 0) return;
        if (this.state === 'chunk') this.state = 'chunk-size';
        else return this.finish();
      } else if (this.state === 'chunk-size') {
        const eol = this.pending.indexOf('\r\n');
        if (eol === -1) return;
        const size = parseInt(this.pending.toString('latin1', 0, eol), 16);
        this.pending = this.pending.subarray(eol + 2);
        if (size === 0) this.state = 'trailer';
        else {
          this.state = 'chunk';
          this.remaining = size + 2; // the data and its CRLF
        }
      } else if (this.state === 'trailer') {
        const eol = this.pending.indexOf('\r\n');
        if (eol === -1) return;
        this.pending = this.pending.subarray(eol + 2);
        if (eol === 0) return this.finish(); // the empty line after the (usually absent) trailers
      } else return;
    }
  }

  private finish(): void {
    this.state = 'idle';
    this.onAnswer(this, performance.now() - this.sentAt, this.status);
  }
}

/**
 * An open-loop run at a fixed rate: request i is due at t0 + i/rate, whatever the answers do, sent on the
 * first idle one of `connections` keep-alive connections (raw sockets and prebuilt request bytes, so that the
 * generator stays cheap). Latency is measured from the write to the end of the answer.
 *
 * autocannon's own `overallRate` is not used for this: it is a per-connection quota reset every second, so
 * every connection sends its quota back to back at the start of each second; at half the maximum rate the
 * first half of every second runs saturated and the p99 is the saturated one.
 */
export async function paced(target: Target, options: PacedOptions): Promise<PacedResult> {
  const url = new URL(target.url);
  const get = target.method === 'GET';
  const body = get ? Buffer.alloc(0) : Buffer.from(target.body);
  const head =
    `${get ? 'GET' : 'POST'} ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n` +
    Object.entries(target.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    (get ? '\r\n' : `content-length: ${body.length}\r\n\r\n`);
  const request = Buffer.concat([Buffer.from(head, 'latin1'), body]);
  const samples = new Samples();
  const lags = new Samples();
  const statuses: Record<string, number> = {};
  let errors = 0;
  let finished = 0;
  let measuring = false;
  const idle: RawConnection[] = [];
  let queued = 0; // due but waiting for an idle connection
  let wake: (() => void) | undefined;

  const dispatch = () => {
    while (queued > 0 && idle.length > 0) {
      const connection = idle.pop() as RawConnection;
      if (!connection.connected) continue; // closed by the server while idle: back in the pool once reconnected
      queued--;
      connection.send(request);
    }
  };
  const onAnswer = (connection: RawConnection, latencyMs: number, status: number) => {
    if (measuring) {
      if (Number.isNaN(latencyMs)) errors++;
      else {
        samples.push(latencyMs);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status < 200 || status > 299) errors++;
      }
      finished++;
    }
    if (connection.connected) idle.push(connection);
    dispatch();
    wake?.();
  };
  const onReady = (connection: RawConnection) => {
    if (!connection.busy && !idle.includes(connection)) idle.push(connection);
    dispatch();
    wake?.();
  };
  const connections = Array.from({ length: options.connections }, () => new RawConnection(url.hostname, Number(url.port), onAnswer, onReady));

  try {
    // Connect, and send one request on each connection before measuring.
    const deadline0 = performance.now() + 10_000;
    while (idle.length < options.connections && performance.now() < deadline0) await new Promise<void>((r) => (wake = r));
    queued = options.connections;
    dispatch();
    while (idle.length < options.connections && performance.now() < deadline0) await new Promise<void>((r) => (wake = r));
    wake = undefined;
    if (idle.length < options.connections) throw new Error(`paced: only ${idle.length} of ${options.connections} connections to ${target.url} work`);

    measuring = true;
    const total = Math.max(1, Math.round(options.rate * options.durationS));
    const intervalMs = 1000 / options.rate;
    // A target that falls this far behind is saturated: requests due beyond it are not sent (counted as
    // dropped), so that an overloaded target cannot stretch the run by its whole backlog.
    const maxBacklog = Math.max(4 * options.connections, Math.ceil(options.rate / 2));
    let issued = 0;
    let dropped = 0;
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const settledAll = () => issued + dropped === total && finished === issued;
      const deadline = setTimeout(() => {
        clearInterval(tick);
        resolve();
      }, (options.durationS + 15) * 1000);
      wake = () => {
        if (settledAll()) {
          clearTimeout(deadline);
          resolve();
        }
      };
      const tick = setInterval(() => {
        const now = performance.now();
        const due = Math.min(total, Math.floor((now - t0) / intervalMs) + 1);
        while (issued + dropped < due) {
          if (issued - finished >= maxBacklog) {
            dropped++;
            continue;
          }
          lags.push(now - (t0 + (issued + dropped) * intervalMs));
          issued++;
          queued++;
        }
        dispatch();
        if (issued + dropped === total) {
          clearInterval(tick);
          wake?.();
        }
      }, 1);
    });
    wake = undefined;
    const elapsed = (performance.now() - t0) / 1000;
    const lastDue = ((total - 1) * intervalMs) / 1000;
    const [p50, p99] = samples.percentiles(50, 99);
    const [lagP99] = lags.percentiles(99);
    errors += issued - finished; // never answered before the deadline
    return {
      rate: options.rate,
      rps: finished / elapsed,
      p50: p50 as number,
      p99: p99 as number,
      errors,
      responses: samples.length,
      statuses: { ...statuses },
      sendLagP99: lagP99 as number,
      drainMs: (elapsed - lastDue) * 1000,
      dropped,
    };
  } finally {
    for (const c of connections) c.destroy();
  }
}

/** One request, fully read: for checks before and after the runs. */
export function once(
  target: { url: string; headers: Readonly<Record<string, string>>; body: string | Buffer; method?: 'GET' | 'POST' },
  timeoutMs = 10_000,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(target.url);
  const body = typeof target.body === 'string' ? Buffer.from(target.body) : target.body;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: target.method ?? 'POST',
        headers: target.method === 'GET' ? { ...target.headers } : { ...target.headers, 'content-length': String(body.length) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${target.url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(target.method === 'GET' ? undefined : body);
  });
}
