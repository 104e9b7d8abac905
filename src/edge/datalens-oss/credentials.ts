// The headers an internal route of open-source DataLens gets: the client's, without the gateway's version headers,
// and with `Authorization: Bearer <token>` (or `OAuth <token>`, which the DataLens MCP server sends) turned into the
// session cookie the UI server reads (it refuses a bare Bearer).

/** Headers the public API's callers send that mean nothing to the internal routes (the version is the gateway's business). */
const NOT_INTERNAL = new Set(['x-dl-api-version', 'x-dl-client-api-version', 'x-dl-client-writes-through', 'content-length', 'content-type', 'accept-encoding']);

const BEARER = /^(?:Bearer|OAuth)[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

/**
 * The value open-source DataLens keeps in its auth cookie: URL-encoded JSON `{"accessToken": "<token>"}`
 * (datalens-ui src/server/components/auth, the cookie `AUTH_COOKIE_NAME` names).
 */
export const authCookieValue = (token: string): string => encodeURIComponent(JSON.stringify({ accessToken: token }));

/** Cookie pairs of a Cookie header (one or several lines), without the one named `name`. */
function cookiesWithout(cookie: string | string[] | undefined, name: string): string[] {
  const lines = cookie === undefined ? [] : Array.isArray(cookie) ? cookie : [cookie];
  return lines
    .flatMap((line) => line.split(';'))
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && pair.split('=', 1)[0]?.trim() !== name);
}

/**
 * The internal request's headers from the ones the gateway would send a `rpc` backend. A Bearer (or OAuth) token becomes the
 * `cookieName` cookie (replacing a client's own cookie of that name) and the Authorization header goes; any other
 * Authorization and every other cookie pass as sent.
 */
export function internalHeaders(headers: Readonly<Record<string, string | string[]>>, cookieName: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) if (!NOT_INTERNAL.has(name)) out[name] = headers[name] as string | string[];
  const authorization = headers.authorization;
  const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
  if (token !== undefined) {
    delete out.authorization;
    out.cookie = [...cookiesWithout(headers.cookie, cookieName), `${cookieName}=${authCookieValue(token)}`].join('; ');
  }
  out['accept-encoding'] = 'identity';
  return out;
}
