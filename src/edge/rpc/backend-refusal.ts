// What the client gets when the backend does not answer with a success, on the forwarded call or on a
// migration's own call: the one rule written in docs/reference/errors.md ("Answers from the backend").

import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { GatewayError } from '../../core/errors.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { HOP_BY_HOP, connectionListed } from '../http/headers.js';

/** A backend answer to pass on as it is: status, end-to-end headers and the bytes it sent. */
export interface PassedOn {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Uint8Array;
}

/** Headers that describe the backend's body or point at the backend itself: they go when the body is replaced. */
const DESCRIBES_BODY = ['content-type', 'content-length', 'content-encoding', 'content-range', 'content-md5', 'etag', 'last-modified', 'location'];

function isJsonText(body: Uint8Array): boolean {
  if (body.length === 0) return false;
  try {
    JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The backend's own INVALID_API_VERSION_HEADER: the header it refused is the gateway's (the head of its contract), never
 * the client's, so passing it on would blame a client whose header is valid. It means the backend speaks another
 * version than this gateway's contract: the operator's to fix (docs/operations.md, "Releasing a version").
 */
function versionMismatch(body: Uint8Array): GatewayError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
  const answer = parsed as { code?: unknown; message?: unknown };
  if (typeof parsed !== 'object' || parsed === null || answer.code !== 'INVALID_API_VERSION_HEADER') return undefined;
  return new GatewayError(
    'BACKEND_VERSION_MISMATCH',
    'the backend refused the API version this gateway forwards: it speaks another version than the gateway\'s contract; deploy the gateway whose contract matches the backend (or roll the backend back), /readyz shows both',
    { upstreamStatus: 400, upstreamCode: 'INVALID_API_VERSION_HEADER', upstreamMessage: typeof answer.message === 'string' ? answer.message.slice(0, 200) : null },
  );
}

/** Either the backend's answer, passed on; or the gateway's problem, with the backend headers it keeps. */
export type Refusal =
  | { readonly passedOn: PassedOn }
  | { readonly problem: GatewayError; readonly headers: OutgoingHttpHeaders };

/**
 * A 3xx is never passed on (its Location names the backend's own address) and becomes 502. A 4xx/5xx
 * whose body is JSON (or compressed), under a JSON content type, passes on unchanged. Any other 4xx/5xx keeps its status
 * and end-to-end headers (Retry-After, WWW-Authenticate, …) but gets the gateway's problem body
 * (UPSTREAM_ERROR), since every error this API answers is JSON.
 */
export function backendRefusal(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: Uint8Array,
): Refusal {
  if (status < 400) {
    const problem = new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered with a redirect, which this API never does', {
      reason: `redirect ${status}`,
      upstreamStatus: status,
    });
    return { problem, headers: {} };
  }
  const contentType = headers['content-type'];
  const type = typeof contentType === 'string' ? contentType : undefined;
  const encoding = headers['content-encoding'];
  // A compressed body is not decoded to be checked: its content type is taken at its word.
  const compressed = encoding !== undefined && encoding !== 'identity';
  const json = isJsonMediaType(type) && (compressed || isJsonText(body));
  const kept: OutgoingHttpHeaders = {};
  // Names the answer's Connection field lists are hop-by-hop too (a migration's call arrives with them).
  const listed = connectionListed(headers as IncomingHttpHeaders);
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name === 'content-length' || HOP_BY_HOP.has(name) || listed.includes(name) || (!json && DESCRIBES_BODY.includes(name))) continue;
    kept[name] = value;
  }
  if (json) {
    const mismatch = status === 400 && !compressed ? versionMismatch(body) : undefined;
    if (mismatch) return { problem: mismatch, headers: {} };
    return { passedOn: { status, headers: kept, body } };
  }
  const problem = new GatewayError(
    'UPSTREAM_ERROR',
    `the backend refused the request with status ${status} and ${body.length ? 'a body that is not JSON' : 'no body'}`,
    { upstreamStatus: status, upstreamContentType: type?.slice(0, 100) ?? null },
    status,
  );
  return { problem, headers: kept };
}
