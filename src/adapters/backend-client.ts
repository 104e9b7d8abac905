// Calls the latest-only backend from inside the gateway: migrations' lookups and the readiness probe.

import type { Dispatcher } from 'undici';
import { BackendCallError, GatewayError } from '../core/errors.js';

export interface BackendClientOptions {
  readonly baseUrl: string;
  /** The runtime's connection pool to the backend (shared with the forwarder). */
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  readonly headVersion: number;
}

export interface BackendAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export function createBackendClient(options: BackendClientOptions) {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const timeout = () =>
    new GatewayError('UPSTREAM_TIMEOUT', `the backend did not answer within ${options.timeoutMs} ms`, {
      timeoutMs: options.timeoutMs,
    });

  async function exchange(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    payload?: string,
    signal?: AbortSignal,
  ): Promise<BackendAnswer> {
    if (signal?.aborted) throw upstreamBroken('the client went away');
    // One deadline for the whole call, body included; a client that goes away cancels the calls made on its behalf.
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort(new Error('backend call deadline exceeded'));
    }, options.timeoutMs);
    const onAbort = () => stop.abort(new Error('the client went away'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await options.dispatcher.request({
        origin: base.origin,
        method,
        path: basePath + path,
        headers: {
          ...headers,
          'x-dl-api-version': String(options.headVersion),
          ...(payload !== undefined && { 'content-type': 'application/json' }),
        },
        body: payload,
        signal: stop.signal,
        idempotent: method === 'GET',
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          answer.body.destroy();
          throw upstreamBroken('backend answer too large');
        }
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks, size).toString('utf8');
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        throw upstreamBroken('the backend answered with a body that is not JSON');
      }
      return { status: answer.statusCode, headers: answer.headers, body };
    } catch (e) {
      if (e instanceof GatewayError) throw e;
      if (timedOut) throw timeout();
      if (signal?.aborted) throw upstreamBroken('the client went away');
      const err = e as Error & { code?: string };
      throw upstreamBroken(err.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : (err.code ?? err.message));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    /** POST /rpc/<method> at the latest version; 2xx → the JSON object, else BackendCallError. */
    async call(
      method: string,
      body: Record<string, unknown>,
      headers: Record<string, string>,
      signal?: AbortSignal,
    ): Promise<Record<string, unknown>> {
      const answer = await exchange('POST', `/rpc/${method}`, headers, JSON.stringify(body), signal);
      if (answer.status < 200 || answer.status >= 300) throw new BackendCallError(answer.status, answer.body);
      if (!answer.body || typeof answer.body !== 'object' || Array.isArray(answer.body)) {
        throw upstreamBroken('the backend answered with a JSON value that is not an object');
      }
      return answer.body as Record<string, unknown>;
    },
    /** GET /ping: the backend's announced API version, for readiness. */
    async ping(): Promise<{ apiVersion: number | undefined }> {
      const answer = await exchange('GET', '/ping', {});
      if (answer.status !== 200) throw upstreamBroken(`ping answered ${answer.status}`);
      const fromBody = (answer.body as { apiVersion?: unknown } | null)?.apiVersion;
      const header = answer.headers['x-dl-api-version'];
      const apiVersion = typeof fromBody === 'number' ? fromBody : header ? Number(header) : undefined;
      return { apiVersion };
    },
  };
}

export type BackendClient = ReturnType<typeof createBackendClient>;

const upstreamBroken = (reason: string) =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend could not be reached or answered with a broken response', { reason });
