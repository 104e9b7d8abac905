// Calls the latest-only backend from inside the gateway: migrations' lookups and the readiness probe.

import { request, type Agent } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BackendCallError, GatewayError } from '../core/errors.js';

export interface BackendClientOptions {
  readonly baseUrl: string;
  readonly agent: Agent;
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
  const send = base.protocol === 'https:' ? httpsRequest : request;

  function exchange(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    payload?: string,
    signal?: AbortSignal,
  ): Promise<BackendAnswer> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(upstreamBroken('the client went away'));
        return;
      }
      const req = send(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: basePath + path,
          method,
          agent: options.agent,
          headers: {
            ...headers,
            'x-dl-api-version': String(options.headVersion),
            ...(payload !== undefined && {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(payload)),
            }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error('backend answer too large'));
            else chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = null;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              reject(upstreamBroken('the backend answered with a body that is not JSON'));
              return;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          });
          res.on('error', (e) => reject(timedOut ? timeout() : upstreamBroken(e.message)));
        },
      );
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
      }, options.timeoutMs);
      const timeout = () =>
        new GatewayError('UPSTREAM_TIMEOUT', `the backend did not answer within ${options.timeoutMs} ms`, {
          timeoutMs: options.timeoutMs,
        });
      // A client that goes away cancels the calls made on its behalf.
      const onAbort = () => req.destroy(new Error('the client went away'));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('error', (e: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(timedOut ? timeout() : upstreamBroken(e.code ?? e.message));
      });
      req.end(payload);
    });
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
