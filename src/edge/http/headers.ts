// Header rules at the edge: hop-by-hop and gateway-owned headers, and the request id.

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { clientOf } from './client-address.js';

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
  'x-dl-client-writes-through',
  'x-request-id',
  'content-length',
  'content-encoding', // the gateway forwards the body decoded (src/edge/rpc/body.ts)
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-real-ip',
  // Servers and frameworks that route by these instead of the request-target (IIS URL Rewrite, Symfony and Laminas
  // read X-Original-URL and X-Rewrite-URL; Traefik's X-Forwarded-Uri, nginx setups' X-Original-URI, Envoy's
  // X-Envoy-Original-Path): a client's copy would route the backend past what the gateway checked.
  'x-original-url',
  'x-rewrite-url',
  'x-original-uri',
  'x-forwarded-uri',
  'x-envoy-original-path',
  // httpoxy: CGI-style backends read a `Proxy` header as HTTP_PROXY and send their own outbound calls through it.
  'proxy',
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
 * gateway-owned ones, and without Host (the backend's is the connection's origin). Names with "_" are
 * dropped too: servers that map "_" to "-" (CGI, WSGI, PHP) would read `Content_Length` or
 * `x_dl_client_api_version` as the real header.
 */
export function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = headers.connection === undefined ? NONE : connectionListed(headers);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || OWNED_UPSTREAM.has(name) || name === 'host' || listed.includes(name) || name.includes('_')) continue;
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

/** Splits a Link field into its link-values (RFC 8288 §3): commas inside <…> or a quoted string do not separate. */
export function linkValues(field: string | readonly string[]): string[] {
  const out: string[] = [];
  for (const line of typeof field === 'string' ? [field] : field) {
    let start = 0;
    let inUri = false;
    let inQuote = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (inQuote) {
        if (c === '\\') i++;
        else if (c === '"') inQuote = false;
      } else if (c === '"') inQuote = true;
      else if (c === '<') inUri = true;
      else if (c === '>') inUri = false;
      else if (c === ',' && !inUri) {
        out.push(line.slice(start, i).trim());
        start = i + 1;
      }
    }
    out.push(line.slice(start).trim());
  }
  return out.filter(Boolean);
}

const REL = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i;

/** Whether a link-value's rel names `relation` (rel may list several, space-separated). */
export function hasRelation(linkValue: string, relation: string): boolean {
  const tail = linkValue.slice(linkValue.indexOf('>') + 1);
  const match = REL.exec(tail);
  const rels = (match?.[1] ?? match?.[2] ?? '').toLowerCase().split(/\s+/);
  return rels.includes(relation);
}

/**
 * The backend's answer headers, made fit for the client: the gateway's version and request id stand.
 * On a deprecated version (`lifecycle` given) the gateway's Deprecation and Sunset stand as well, and
 * the backend's Link keeps every link but its rel="deprecation" and rel="successor-version" ones, followed by
 * the gateway's. The supported and deprecated version lists are always the gateway's.
 */
export function ownAnswerHeaders(
  headers: Record<string, string | string[] | number | undefined>,
  lifecycle: Readonly<Record<string, string>> | undefined,
): void {
  delete headers['x-dl-api-version'];
  delete headers['x-request-id'];
  delete headers['api-supported-versions'];
  delete headers['api-deprecated-versions'];
  if (!lifecycle) return;
  delete headers.deprecation;
  delete headers.sunset;
  const backendLinks = headers.link;
  if (backendLinks === undefined) return;
  const kept = linkValues(typeof backendLinks === 'number' ? String(backendLinks) : backendLinks).filter(
    (v) => !hasRelation(v, 'deprecation') && !hasRelation(v, 'successor-version'),
  );
  if (lifecycle.link) kept.push(lifecycle.link);
  if (kept.length) headers.link = kept.join(', ');
  else delete headers.link;
}

// The X-Forwarded-* headers the gateway sets towards the backend, for the request's client (its connection's peer, or
// the client a trusted proxy names: client-address.ts); the client's own copies are gateway-owned and never forwarded.

/**
 * Sets them on `out` (the upstream request's headers). `withHost`: X-Forwarded-Host too (pass-through, whose pages
 * build links; /rpc never trusts the client's Host).
 */
export function setForwardedHeaders(out: Record<string, string | string[] | undefined>, req: IncomingMessage, withHost = true): void {
  const client = clientOf(req);
  out['x-forwarded-proto'] = client.proto;
  if (client.address) out['x-forwarded-for'] = client.address;
  if (client.port) out['x-forwarded-port'] = client.port;
  if (client.host && withHost) out['x-forwarded-host'] = client.host;
}
