// The gateway's errors for a backend that failed it, in the same words wherever the call was made
// (forwarded /rpc calls, migrations' own calls, pass-through).

import { type ErrorDetails, GatewayError } from './errors.js';

/** The backend could not be reached, or answered something that is not a usable answer; `reason` says which. */
export const upstreamUnavailable = (reason: string, more: ErrorDetails = {}) =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend could not be reached or answered with a broken response', { reason, ...more });

export const upstreamTimeout = (timeoutMs: number) =>
  new GatewayError('UPSTREAM_TIMEOUT', `the backend did not answer within ${timeoutMs} ms`, { timeoutMs });

/** undici's codes for socket errors, in the words of the socket errors operators know. */
const SOCKET_WORDS: Readonly<Record<string, string>> = { UND_ERR_SOCKET: 'ECONNRESET' };

/**
 * A failed call to the backend: `reason` is the socket's error code (ECONNREFUSED, ECONNRESET…), or the
 * message when there is none; an undici code that says the same thing in its own words stays in `undiciCode`.
 */
export function upstreamFailed(err: Error & { code?: string }): GatewayError {
  const code = err.code;
  if (code === undefined) return upstreamUnavailable(err.message);
  const words = SOCKET_WORDS[code];
  return words ? upstreamUnavailable(words, { undiciCode: code }) : upstreamUnavailable(code);
}
