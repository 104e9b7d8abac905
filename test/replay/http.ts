// The replay suites' HTTP side: a call as a real client makes it, and setup calls through the same gateway.

import type { Answer } from './expect-replay.js';
import type { Setup, Version } from './fixture.js';

/** POST /rpc/<method> at `version`; an undefined body is sent as no body at all (no content type). */
export async function post(url: string, method: string, body: unknown, version: string): Promise<Answer> {
  const res = await fetch(`${url}/rpc/${method}`, {
    method: 'POST',
    headers: { 'x-dl-api-version': version, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Setup calls through the gateway at `url`, at the version asked for. */
export const setupThrough = (url: string) => (at: Version): Setup => ({
  at,
  async ok(method, body) {
    const answer = await post(url, method, body, String(at));
    if (answer.status !== 200) throw new Error(`setup ${method} at ${at}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  },
});
