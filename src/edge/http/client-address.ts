// Who the client of a request is: its connection's peer, or, when that peer is a trusted proxy (`listen.trustedProxies`),
// the client the proxy names in X-Forwarded-For (its rightmost untrusted address), -Proto, -Host and -Port.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** The client as the backend is told about it in X-Forwarded-*. */
export interface Client {
  /** Its address (undefined when the socket is gone). */
  readonly address: string | undefined;
  readonly proto: 'http' | 'https';
  /** The Host it asked for, undefined without one. */
  readonly host: string | undefined;
  /** The port it connected to, as a decimal string. */
  readonly port: string | undefined;
}

/** What the connection itself says: the peer and the local end of its socket. */
export interface Peer {
  readonly address: string | undefined;
  readonly encrypted: boolean;
  readonly localPort: number | undefined;
}

/** A list of proxy addresses and CIDR blocks (IPv4 or IPv6), as `listen.trustedProxies` holds them. */
export class TrustedProxies {
  private readonly blocks = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', bits] = entry.trim().split('/');
      const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
      if (!family) throw new Error(`not an IP address or CIDR block: ${JSON.stringify(entry)}`);
      if (bits === undefined) this.blocks.addAddress(address, family);
      else this.blocks.addSubnet(address, Number(bits), family);
    }
    this.size = entries.length;
  }

  /** Whether `address` (IPv4, IPv6 or IPv4-mapped IPv6) is one of the proxies. */
  has(address: string): boolean {
    if (isIPv4(address)) return this.blocks.check(address, 'ipv4');
    return isIPv6(address) && this.blocks.check(address, 'ipv6');
  }
}

/** An X-Forwarded-For element as a bare address: brackets and a port are taken off; undefined when it is no address. */
function addressOf(element: string): string | undefined {
  const text = element.trim();
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIPv6(bracketed[1] as string) ? bracketed[1] : undefined;
  if (isIPv4(text) || isIPv6(text)) return text;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return withPort && isIPv4(withPort[1] as string) ? withPort[1] : undefined;
}

/** The rightmost address of X-Forwarded-For that is not a trusted proxy; an unreadable element stops the walk. */
function forwardedFor(field: string | undefined, peer: string, trusted: TrustedProxies): string {
  if (!field) return peer;
  const elements = field.split(',');
  let client = peer;
  for (let i = elements.length - 1; i >= 0; i--) {
    const address = addressOf(elements[i] as string);
    // What precedes an element the proxy did not write as an address is the client's own say: believe none of it.
    if (address === undefined) return client;
    client = address;
    if (!trusted.has(address)) return client;
  }
  return client;
}

const single = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value.trim() : undefined);
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const PORT = /^\d{1,5}$/;

/** The client of a request from its peer and headers: the peer's own view unless the peer is a trusted proxy. */
export function resolveClient(peer: Peer, headers: IncomingHttpHeaders, trusted: TrustedProxies | undefined): Client {
  const own: Client = {
    address: peer.address,
    proto: peer.encrypted ? 'https' : 'http',
    host: single(headers.host) || undefined,
    port: peer.localPort ? String(peer.localPort) : undefined,
  };
  if (!trusted || !peer.address || !trusted.has(peer.address)) return own;
  const proto = single(headers['x-forwarded-proto'])?.toLowerCase();
  const host = single(headers['x-forwarded-host']);
  const port = single(headers['x-forwarded-port']);
  return {
    address: forwardedFor(single(headers['x-forwarded-for']), peer.address, trusted),
    proto: proto === 'http' || proto === 'https' ? proto : own.proto,
    host: host && HOST.test(host) ? host : own.host,
    port: port && PORT.test(port) && Number(port) > 0 && Number(port) < 65536 ? port : own.port,
  };
}

const TRUSTED = Symbol('trustedProxies');
const RESOLVED = Symbol('client');
type Marked = IncomingMessage & { [TRUSTED]?: TrustedProxies; [RESOLVED]?: Client };

/** Tells clientOf() which proxies the listener that took `req` trusts (nothing to do when it trusts none). */
export function trustProxies(req: IncomingMessage, trusted: TrustedProxies): void {
  if (trusted.size > 0) (req as Marked)[TRUSTED] = trusted;
}

/** The request's client: as trustProxies() allows (resolved once per request), else the connection's peer. */
export function clientOf(req: IncomingMessage): Client {
  const marked = req as Marked;
  const known = marked[RESOLVED];
  if (known) return known;
  const socket = req.socket;
  const peer = { address: socket.remoteAddress, encrypted: (socket as TLSSocket).encrypted === true, localPort: socket.localPort };
  const trusted = marked[TRUSTED];
  const client = resolveClient(peer, req.headers, trusted);
  // Kept only behind a trusted proxy: a direct client costs no property on the request.
  if (trusted) marked[RESOLVED] = client;
  return client;
}
