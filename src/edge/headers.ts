// Header rules at the edge: hop-by-hop and gateway-owned headers, and the request id.

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** RFC 9110 §7.6.1 connection-specific fields, plus the de-facto ones proxies drop. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers the gateway owns towards the backend: a client's copy never goes through as sent. */
export const OWNED_UPSTREAM = new Set([
  'x-dl-api-version',
  'x-dl-client-api-version',
  'x-request-id',
  'content-length',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-real-ip',
]);

const NONE: readonly string[] = Object.freeze([]);

/** Names listed in a Connection header are hop-by-hop too (RFC 9110 §7.6.1). */
export function connectionListed(headers: IncomingHttpHeaders): readonly string[] {
  const value = headers.connection;
  if (!value) return NONE;
  // The usual values name no other header: skip the parse on every keep-alive request and answer.
  const lower = value.toLowerCase();
  if (lower === 'keep-alive' || lower === 'close') return NONE;
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The client's headers that may go on to the backend: without hop-by-hop, Connection-listed and
 * gateway-owned ones, and without Host (the backend's is the connection's origin).
 */
export function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = headers.connection === undefined ? NONE : connectionListed(headers);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || OWNED_UPSTREAM.has(name) || name === 'host' || listed.includes(name)) continue;
    const value = headers[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's x-request-id when it is a sane token, else a fresh one. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

const JSON_MEDIA = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;.*)?$/i;
export const isJsonMediaType = (value: string | undefined): boolean => !!value && JSON_MEDIA.test(value.trim());
