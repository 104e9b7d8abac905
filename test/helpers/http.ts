// Plain node:http requests for what fetch cannot send as-is (raw paths, repeated or hop-by-hop headers,
// chunked bodies), and the one assertion every error body must pass.

import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode, clientMessage } from '../../src/core/errors.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** Parsed JSON, or the text when it is not JSON. */
  readonly body: any;
}

export interface RawRequest {
  method?: string;
  /** Sent verbatim: no normalisation of `..`, `//` or escapes. */
  path: string;
  /** Array values go out as repeated header lines. */
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Send the body as these chunks with Transfer-Encoding: chunked (no Content-Length). */
  chunks?: readonly (string | Buffer)[];
}

export function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method ?? 'POST',
        path: req.path,
        agent: false,
        headers: req.headers ?? {},
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* keep the text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    out.on('error', reject);
    if (req.chunks) {
      for (const c of req.chunks) out.write(c);
      out.end();
    } else {
      out.end(req.body);
    }
  });
}

/** The headers of a fetch or node:http response, read the same way. */
export function headerOf(headers: Headers | IncomingHttpHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const v = headers[name.toLowerCase()];
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

const PROBLEM_KEYS = ['code', 'detail', 'details', 'message', 'requestId', 'status', 'title', 'type'];

/**
 * Asserts the one error shape: status, `application/problem+json`, exactly the eight fields, `message` (the real
 * DataLens sentence where the catalogue has one, else `detail`), `requestId` = the response's x-request-id, the code,
 * and `details`: the array of issues for VALIDATION_ERROR, an object otherwise. Returns `details`.
 */
export function expectProblem(
  res: { status: number; headers: Headers | IncomingHttpHeaders; body: any },
  status: number,
  code: string,
): Record<string, any> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(headerOf(res.headers, 'content-type')).toMatch(/^application\/problem\+json\b/);
  expect(res.body).toBeTypeOf('object');
  expect(Object.keys(res.body).sort()).toEqual(PROBLEM_KEYS);
  expect(res.body.code).toBe(code);
  expect(res.body.status).toBe(status);
  expect(res.body.type).toEqual(expect.any(String));
  expect(res.body.title).toEqual(expect.any(String));
  expect(res.body.detail).toEqual(expect.any(String));
  expect(res.body.detail.length).toBeGreaterThan(0);
  const own = code in ERROR_CATALOGUE ? clientMessage(code as ErrorCode, res.body.detail) : res.body.detail;
  expect(res.body.message).toBe(own);
  const requestId = headerOf(res.headers, 'x-request-id');
  expect(requestId).toBeTruthy();
  expect(res.body.requestId).toBe(requestId);
  expect(res.body.details).toBeTypeOf('object');
  expect(res.body.details).not.toBeNull();
  expect(Array.isArray(res.body.details), 'details is an array exactly for VALIDATION_ERROR').toBe(code === 'VALIDATION_ERROR');
  return res.body.details;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
