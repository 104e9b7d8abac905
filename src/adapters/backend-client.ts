// Calls the latest-only backend from inside the gateway: the lookups migrations make on a client's behalf.

import type { Dispatcher } from 'undici';
import { BackendCallError, GatewayError } from '../core/errors.js';
import { upstreamFailed, upstreamTimeout, upstreamUnavailable } from '../core/upstream-errors.js';
import { isJsonMediaType } from '../core/media-type.js';
import type { BackendAnswer, BackendClient } from '../ports/upstream.js';

export interface BackendClientOptions {
  readonly baseUrl: string;
  /** The runtime's connection pool to the backend (shared with the forwarder). */
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
}


function parsedOrUndefined(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export function createBackendClient(options: BackendClientOptions): BackendClient {
  const base = new URL(options.baseUrl);
  const target: Target = { origin: base.origin, basePath: base.pathname.replace(/\/+$/, ''), options };
  return {
    /** POST /rpc/<method> at the latest version; 2xx → the JSON object, else BackendCallError. */
    async call(method, body, headers, signal) {
      return jsonObjectOf(await exchange(target, 'POST', `/rpc/${method}`, headers, JSON.stringify(body), signal));
    },
  };
}

interface Target {
  readonly origin: string;
  /** The base URL's path without its trailing slash, put before every call's path. */
  readonly basePath: string;
  readonly options: BackendClientOptions;
}

/** One call to the backend, its answer read whole (within MAX_ANSWER_BYTES) under one deadline. */
async function exchange(
  target: Target,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  payload?: string,
  signal?: AbortSignal,
): Promise<BackendAnswer> {
  const { timeoutMs, dispatcher } = target.options;
  if (signal?.aborted) throw upstreamUnavailable('the client went away');
  // One deadline for the whole call, body included; a client that goes away cancels the calls made on its behalf.
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error('backend call deadline exceeded'));
  }, timeoutMs);
  const onAbort = () => stop.abort(new Error('the client went away'));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const answer = await dispatcher.request({
      origin: target.origin,
      method,
      path: target.basePath + path,
      // The caller's headers carry the version headers (src/edge/http/version-headers.ts).
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: payload,
      signal: stop.signal,
      idempotent: method === 'GET',
    });
    const raw = await bodyOf(answer.body);
    return { status: answer.statusCode, headers: answer.headers, raw, body: parsedOrUndefined(raw) };
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    if (timedOut) throw upstreamTimeout(timeoutMs);
    if (signal?.aborted) throw upstreamUnavailable('the client went away');
    throw upstreamFailed(e as Error & { code?: string });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The answer's body, whole; 502 past MAX_ANSWER_BYTES. */
async function bodyOf(body: Dispatcher.ResponseData['body']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw upstreamUnavailable('backend answer too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** A 2xx JSON object answer's object; a refusal is BackendCallError, anything else 502. */
function jsonObjectOf(answer: BackendAnswer): Record<string, unknown> {
  if (answer.status < 200 || answer.status >= 300) {
    throw new BackendCallError(answer.status, answer.body, answer.headers, answer.raw);
  }
  const type = answer.headers['content-type'];
  if (typeof type !== 'string' || !isJsonMediaType(type)) {
    throw upstreamUnavailable(`content-type ${String(type ?? 'none').slice(0, 80)}`);
  }
  if (!answer.body || typeof answer.body !== 'object' || Array.isArray(answer.body)) {
    throw upstreamUnavailable(answer.body === undefined ? 'the backend answered with a body that is not JSON' : 'the backend answered with a JSON value that is not an object');
  }
  return answer.body as Record<string, unknown>;
}
