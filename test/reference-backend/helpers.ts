// Test helpers for the reference backend: start one on 127.0.0.1:0 and call its RPC methods with fetch.

import { createReferenceBackend, type ReferenceBackend, type ReferenceBackendOptions } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';

export { REPORT_CONTENT, REPORT_DESCRIPTION } from '../helpers/head-shapes.js';

export interface Started {
  readonly backend: ReferenceBackend;
  readonly url: string;
}

export async function start(options: ReferenceBackendOptions = {}): Promise<Started> {
  const backend = createReferenceBackend(options);
  const url = await backend.listen();
  return { backend, url };
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/** POST /rpc/<method> with a JSON body; `clientVersion` sets x-dl-client-api-version (absent = the web UI). */
export async function rpc(
  url: string,
  method: string,
  body: unknown,
  options: { clientVersion?: number; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD), ...options.headers };
  if (options.clientVersion !== undefined) headers['x-dl-client-api-version'] = String(options.clientVersion);
  const res = await fetch(`${url}/rpc/${method}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}
