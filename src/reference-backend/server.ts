// The reference backend's HTTP layer (node:http only): body reading, routing, version headers, error rendering.

import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BackendError, problemBody } from './shared/errors.js';
import { invoke, type MethodHandler } from './methods/index.js';
import type { OlderFront } from './older-version.js';
import type { Store } from './stores/index.js';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-cased names, as Node received them (repeated x-* headers joined with ", "). */
  readonly headers: Readonly<IncomingHttpHeaders>;
  /** The raw body; '' when it was refused as too large. */
  readonly body: string;
}

export interface ServerOptions {
  readonly headVersion: number;
  /** Every RPC method, by name. */
  readonly methods: ReadonlyMap<string, MethodHandler>;
  readonly maxBodyBytes: number;
  readonly store: Store;
  readonly record: (request: RecordedRequest) => void;
  /** Set when the backend speaks a version below its handlers': serves each call at that version (older-version.ts). */
  readonly older?: OlderFront;
}

const CANONICAL_INTEGER = /^[1-9][0-9]{0,8}$/;
const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
// Bytes of an oversized body still read (and discarded) after the 413, so the client can read it; then the socket is cut.
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type BodyResult = { kind: 'ok'; bytes: Buffer } | { kind: 'tooLarge' } | { kind: 'aborted' };

/** Reads the body up to `max` bytes; past that it resolves `tooLarge` at once and keeps discarding (bounded). */
function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const chunks: Buffer[] = [];
    let size = 0;
    let discarded = 0;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) settle({ kind: 'tooLarge' });
    req.on('data', (chunk: Buffer) => {
      if (settled) {
        discarded += chunk.length;
        if (discarded > MAX_DRAIN_BYTES) req.socket.destroy();
        return;
      }
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        settle({ kind: 'tooLarge' });
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => settle({ kind: 'ok', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function isJsonMediaType(contentType: string): boolean {
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export function createBackendServer(options: ServerOptions): Server {
  return createServer((req, res) => {
    onRequest(options, req, res).catch(() => res.destroy());
  });
}

/** x-dl-api-version must be absent or exactly the head version. */
function checkApiVersion(headVersion: number, raw: string | undefined): void {
  const head = String(headVersion);
  if (raw === undefined || raw === head) return;
  const reason = raw.includes(',') ? 'multiple' : CANONICAL_INTEGER.test(raw.trim()) ? 'unsupported' : 'malformed';
  throw new BackendError('INVALID_API_VERSION_HEADER', `This backend speaks only API version ${head}; x-dl-api-version was "${raw.slice(0, 64)}".`, {
    header: 'x-dl-api-version',
    reason,
    received: raw.slice(0, 64),
    supported: [headVersion],
  });
}

/** x-dl-client-api-version: the client version the request acts for (1..head); absent = the web UI at head. */
function clientVersionOf(headVersion: number, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (CANONICAL_INTEGER.test(value)) {
    const n = Number(value);
    if (n <= headVersion) return n;
  }
  throw new BackendError('INVALID_API_VERSION_HEADER', `x-dl-client-api-version must be an integer from 1 to ${headVersion}; it was "${raw.slice(0, 64)}".`, {
    header: 'x-dl-client-api-version',
    reason: raw.includes(',') ? 'multiple' : CANONICAL_INTEGER.test(value) ? 'unsupported' : 'malformed',
    received: raw.slice(0, 64),
    supported: Array.from({ length: headVersion }, (_, i) => i + 1),
  });
}

/**
 * x-dl-client-writes-through, `kind=version` pairs (`dashboard=2,chart=3`): per kind, the newest version the client
 * may write (the gateway's grant for kinds that did not change); a malformed pair, or one below the client's or above
 * the head, is ignored (the client's own version applies).
 */
function writesThroughOf(headVersion: number, raw: string | undefined, clientVersion: number): Record<string, number> | undefined {
  if (raw === undefined) return undefined;
  const out: Record<string, number> = Object.create(null);
  for (const pair of raw.split(',')) {
    const m = /^\s*([A-Za-z][A-Za-z0-9]{0,40})=([1-9][0-9]{0,5})\s*$/.exec(pair);
    if (!m) continue;
    const n = Number(m[2]);
    if (n >= clientVersion && n <= headVersion) out[m[1] as string] = n;
  }
  return out;
}

/** The JSON object a request body holds ({} when empty); 400 for anything else. */
function bodyObject(bytes: Buffer, text: string): Record<string, unknown> {
  let body: unknown = {};
  if (bytes.length > 0) {
    try {
      if (!isUtf8(bytes)) throw new Error('not UTF-8');
      body = JSON.parse(text);
    } catch {
      throw new BackendError('INVALID_JSON', 'The request body is not valid JSON.');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BackendError('VALIDATION_ERROR', 'The request body must be a JSON object.', {
      issues: [{ path: '', message: 'Expected a JSON object' }],
    });
  }
  return body as Record<string, unknown>;
}

/** POST /rpc/<method>: the head-version checks, then the method on the store, acting for the client's version. */
function handleRpc(options: ServerOptions, req: IncomingMessage, path: string, bytes: Buffer, text: string): unknown {
  const { headVersion, methods, store } = options;
  if (req.method !== 'POST') {
    throw new BackendError('METHOD_NOT_ALLOWED', `Use POST for ${path}.`, { method: req.method ?? '', allow: ['POST'] });
  }
  const name = path.slice('/rpc/'.length);
  const handler = METHOD_NAME.test(name) ? methods.get(name) : undefined;
  if (handler === undefined && (options.older === undefined || !METHOD_NAME.test(name))) {
    throw new BackendError('ENDPOINT_NOT_FOUND', `Method "${name.slice(0, 64)}" does not exist.`, { method: name.slice(0, 64) });
  }
  checkApiVersion(headVersion, single(req.headers['x-dl-api-version']));
  const clientVersion = clientVersionOf(headVersion, single(req.headers['x-dl-client-api-version']));
  const contentType = req.headers['content-type'];
  if (contentType !== undefined && !isJsonMediaType(contentType)) {
    throw new BackendError('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json.', { received: contentType.slice(0, 100) });
  }
  const body = bodyObject(bytes, text);
  const version = clientVersion ?? headVersion;
  const through = clientVersion !== undefined ? writesThroughOf(headVersion, single(req.headers['x-dl-client-writes-through']), clientVersion) : undefined;
  const ctx = {
    store,
    clientVersion: version,
    webUi: clientVersion === undefined,
    access: { version, ...(clientVersion !== undefined && { through }) },
  };
  return options.older ? options.older(name, body, ctx) : invoke(handler as MethodHandler, name, body, ctx);
}

/** Writes one JSON answer (a problem's media type for errors), with the head version and the request id. */
function send(res: ServerResponse, head: number, requestId: string | undefined, status: number, payload: unknown, problem: boolean, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(payload);
  const headers: Record<string, string | number> = {
    'content-type': problem ? 'application/problem+json' : 'application/json',
    'content-length': Buffer.byteLength(json),
    'x-dl-api-version': String(head),
    ...extra,
  };
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  res.writeHead(status, headers);
  res.end(json);
}

/** The problem answer for a BackendError, or a 500 for anything else. */
function fail(res: ServerResponse, head: number, requestId: string | undefined, error: unknown): void {
  const e = error instanceof BackendError ? error : new BackendError('INTERNAL_ERROR', 'The reference backend failed to handle the request.');
  const extra: Record<string, string> = {};
  if (e.code === 'METHOD_NOT_ALLOWED') extra.allow = (e.details.allow as string[]).join(', ');
  send(res, head, requestId, e.status, problemBody(e, requestId ?? null), true, extra);
}

async function onRequest(options: ServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { headVersion, maxBodyBytes, record } = options;
  const rawRequestId = single(req.headers['x-request-id']);
  const requestId = rawRequestId !== undefined && HEADER_VALUE.test(rawRequestId) ? rawRequestId : undefined;
  const url = req.url ?? '/';
  const result = await readBody(req, maxBodyBytes);
  if (result.kind === 'aborted') return;
  const text = result.kind === 'ok' ? result.bytes.toString('utf8') : '';
  record({ method: req.method ?? '', url, headers: req.headers, body: text });
  if (result.kind === 'tooLarge') {
    fail(res, headVersion, requestId, new BackendError('PAYLOAD_TOO_LARGE', `The request body exceeds ${maxBodyBytes} bytes.`, { limitBytes: maxBodyBytes }));
    return;
  }
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  try {
    if (path === '/ping') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new BackendError('METHOD_NOT_ALLOWED', 'Use GET for /ping.', { method: req.method ?? '', allow: ['GET', 'HEAD'] });
      }
      send(res, headVersion, requestId, 200, { status: 'ok', apiVersion: headVersion }, false);
    } else if (path.startsWith('/rpc/')) {
      send(res, headVersion, requestId, 200, await handleRpc(options, req, path, result.bytes, text), false);
    } else {
      throw new BackendError('ENDPOINT_NOT_FOUND', `No endpoint at ${path.slice(0, 100)}.`, { path: path.slice(0, 100) });
    }
  } catch (error) {
    fail(res, headVersion, requestId, error);
  }
}
