// Load generation: closed-loop maximum-throughput runs with autocannon, and an open-loop paced run at a
// fixed request rate for latency under moderate load.

import autocannon from 'autocannon';
import { Agent, request } from 'node:http';

export interface Target {
  /** Short row name, e.g. "gw-v1-get". */
  readonly name: string;
  readonly description: string;
  /** Full URL, e.g. http://127.0.0.1:PORT/rpc/getReport. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
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

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export interface BlastOptions {
  readonly connections: number;
  readonly durationS: number;
}

/** As many requests as `connections` keep-alive connections (pipelining 1) can push for `durationS` seconds. */
export function blast(target: Target, options: BlastOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const samples = new Samples();
    let bad = 0;
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: { ...target.headers },
        body: target.body,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationS,
        timeout: 10,
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
}

/**
 * An open-loop run at a fixed rate: request i is due at t0 + i/rate, whatever the answers do. Latency is
 * measured from the moment each request is handed to the client (waiting for a free connection included).
 *
 * autocannon's own `overallRate` is not used for this: it is a per-connection quota reset every second, so
 * every connection sends its quota back to back at the start of each second; at half the maximum rate the
 * first half of every second runs saturated and the p99 is the saturated one.
 */
export async function paced(target: Target, options: PacedOptions): Promise<PacedResult> {
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const body = Buffer.from(target.body);
  const headers = { ...target.headers, 'content-length': String(body.length) };
  const samples = new Samples();
  const lags = new Samples();
  const statuses: Record<string, number> = {};
  let errors = 0;
  let finished = 0;

  const send = (): Promise<void> =>
    new Promise((done) => {
      const started = performance.now();
      let settled = false;
      const settle = (status: number | undefined) => {
        if (settled) return;
        settled = true;
        if (status === undefined) errors++;
        else {
          samples.push(performance.now() - started);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status < 200 || status > 299) errors++;
        }
        finished++;
        done();
      };
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => settle(res.statusCode ?? 0));
        res.on('close', () => settle(undefined)); // closed before its end: a broken answer
        res.on('error', () => settle(undefined));
      });
      req.on('error', () => settle(undefined));
      req.end(body);
    });

  try {
    // Open the connections first so that connection set-up is not measured.
    await Promise.all(Array.from({ length: options.connections }, () => send()));
    samples.length = 0;
    lags.length = 0;
    errors = 0;
    finished = 0;
    for (const k of Object.keys(statuses)) delete statuses[k];

    const total = Math.max(1, Math.round(options.rate * options.durationS));
    const intervalMs = 1000 / options.rate;
    let sent = 0;
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        clearInterval(tick);
        resolve();
      }, (options.durationS + 15) * 1000);
      const tick = setInterval(() => {
        const now = performance.now();
        const due = Math.min(total, Math.floor((now - t0) / intervalMs) + 1);
        while (sent < due) {
          lags.push(now - (t0 + sent * intervalMs));
          sent++;
          void send().then(() => {
            if (finished === total) {
              clearTimeout(deadline);
              resolve();
            }
          });
        }
        if (sent === total) clearInterval(tick);
      }, 1);
    });
    const elapsed = (performance.now() - t0) / 1000;
    const [p50, p99] = samples.percentiles(50, 99);
    const [lagP99] = lags.percentiles(99);
    errors += total - finished; // never answered before the deadline
    return {
      rate: options.rate,
      rps: finished / elapsed,
      p50: p50 as number,
      p99: p99 as number,
      errors,
      responses: samples.length,
      statuses: { ...statuses },
      sendLagP99: lagP99 as number,
    };
  } finally {
    agent.destroy();
  }
}

/** One request, fully read: for checks before and after the runs. */
export function once(
  target: { url: string; headers: Readonly<Record<string, string>>; body: string | Buffer },
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
        method: 'POST',
        headers: { ...target.headers, 'content-length': String(body.length) },
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
    req.end(body);
  });
}
