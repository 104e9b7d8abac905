// The readiness check behind /readyz: GET readiness.path on the backend within readiness.timeoutMs, 2xx, and
// (unless readiness.checkVersion is off) the contract's latest version announced in the body or a header.

import type { Dispatcher } from 'undici';
import { versionNumberIn } from '../../core/version/number.js';
import { setBackendVersion } from '../http/version-headers.js';

export interface ReadinessOptions {
  /** The runtime's connection pool to the backend. */
  readonly dispatcher: Dispatcher;
  /** The backend's base URL; the check's path is appended to its path. */
  readonly upstreamUrl: string;
  readonly path: string;
  readonly timeoutMs: number;
  readonly checkVersion: boolean;
  /** The version the backend must announce: upstream.apiVersion, or the contract's head. */
  readonly headVersion: number;
  /** Set when the version comes from upstream.apiVersion (the refusal names the setting). */
  readonly configured?: boolean;
}

export type Readiness =
  | { readonly ready: true; readonly backendVersion?: number }
  | { readonly ready: false; readonly reason: string };

/** The most of the backend's answer read to find its version: a readiness answer is small. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The version the answer announces: `{"apiVersion": N}` in a JSON body, else the x-dl-api-version header. */
function announcedVersion(body: string, header: string | string[] | undefined): number | undefined {
  try {
    const parsed = JSON.parse(body) as { apiVersion?: unknown } | null;
    if (typeof parsed?.apiVersion === 'number') return parsed.apiVersion;
  } catch {
    /* not JSON: the header may still say it */
  }
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined ? undefined : versionNumberIn(value);
}

function readinessHeaders(head: number): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  setBackendVersion(headers, head);
  return headers;
}

export async function checkReadiness(options: ReadinessOptions): Promise<Readiness> {
  const base = new URL(options.upstreamUrl);
  const path = base.pathname.replace(/\/+$/, '') + options.path;
  const where = `GET ${path}`;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), options.timeoutMs);
  try {
    const answer = await options.dispatcher.request({
      origin: base.origin,
      method: 'GET',
      path,
      headers: readinessHeaders(options.headVersion),
      signal: stop.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        answer.body.destroy();
        break;
      }
      chunks.push(chunk);
    }
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      return { ready: false, reason: `the backend answered ${where} with ${answer.statusCode}` };
    }
    if (!options.checkVersion) return { ready: true };
    const version = announcedVersion(Buffer.concat(chunks).toString('utf8'), answer.headers['x-dl-api-version']);
    if (version !== options.headVersion) {
      return {
        ready: false,
        reason: `the backend speaks API version ${version ?? 'unknown'} (${where}); ${options.configured ? `this gateway's upstream.apiVersion is ${options.headVersion}` : `this gateway's contract ends at version ${options.headVersion}`}`,
      };
    }
    return { ready: true, backendVersion: version };
  } catch (e) {
    if (stop.signal.aborted) return { ready: false, reason: `the backend did not answer ${where} within ${options.timeoutMs} ms` };
    const err = e as Error & { code?: string };
    return { ready: false, reason: `the backend could not be reached (${where}): ${err.code ?? err.message}` };
  } finally {
    clearTimeout(timer);
  }
}
