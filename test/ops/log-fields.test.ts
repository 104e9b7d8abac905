// The request log line says what the client got, and docs/operations.md names every field it can carry:
// a deprecated (translated) call, a streamed answer the backend cut mid-body, and a client that left.

import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConnection } from '../helpers/keep-alive.js';
import { post, within } from '../helpers/raw-socket.js';
import { responseHead, type ScriptedUpstream, startScriptedUpstream } from '../helpers/scripted-upstream.js';
import { createLogger } from '../../src/cli/logger.js';
import { parseJsonLines } from '../helpers/serve-process.js';
import { HEAD } from '../helpers/calendar.js';
import { type Stack, startStack } from '../helpers/stack.js';

const AT = '2026-11-20T10:00:00.000Z';
const report = (id: string) => JSON.stringify({ id, workbookId: 'wb_x', config: {}, description: '', legacyKey: 'a/b', version: 1, createdAt: AT, updatedAt: AT });

/** The "## Logs" section of docs/operations.md. */
function logsSection(): string {
  const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const start = text.indexOf('\n## Logs\n');
  expect(start, 'docs/operations.md has a "## Logs" section').toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

let upstream: ScriptedUpstream;
let stack: Stack;
// The process logger serve uses (its base fields included), writing to memory.
const written: string[] = [];
const wrote = new EventEmitter();
const logger = createLogger('info', { write: (s: string) => void (written.push(s), wrote.emit('line')) });

beforeAll(async () => {
  upstream = await startScriptedUpstream(({ socket, request, later }) => {
    const id = (JSON.parse(request.body || '{}') as { reportId?: string }).reportId ?? '';
    const body = report(id);
    const head = responseHead('200 OK', { 'content-type': 'application/json', 'content-length': body.length });
    if (id === 'rep_cut') {
      // The head and half the body, then a reset: a streamed answer that cannot complete.
      socket.write(head + body.slice(0, body.length >> 1));
      later(25, () => socket.resetAndDestroy());
    } else if (id === 'rep_slow') {
      later(2_000, () => socket.write(head + body));
    } else socket.write(head + body);
  });
  stack = await startStack({ upstreamUrl: upstream.url, logger });
});
afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

const getReport = (version: string, reportId: string, requestId: string) =>
  post('/rpc/getReport', JSON.stringify({ reportId }), [
    ['content-type', 'application/json'],
    ['x-dl-api-version', version],
    ['x-request-id', requestId],
  ]);
/** The request line of `requestId`, once written. */
const lineOf = (requestId: string) =>
  within(
    5_000,
    new Promise<Record<string, unknown>>((resolve) => {
      const look = () => {
        const line = parseJsonLines(written.join('')).find((e) => e.msg === 'request' && e.requestId === requestId);
        if (!line) return;
        wrote.off('line', look);
        resolve(line);
      };
      wrote.on('line', look);
      look();
    }),
    `the log line of ${requestId}`,
  );

describe('the request log line', () => {
  it('records a streamed answer the backend cut as its status with cut: true and the error; a client that left as 499; and operations.md names every field', async () => {
    const lines: Record<string, unknown>[] = [];

    // A deprecated version, translated: version, deprecated, translateMs, upstreamMs, client.
    const v1 = await openConnection(stack.url);
    v1.send(getReport('1', 'rep_ok', 'fields-v1'));
    expect((await within(5_000, v1.answer(0))).response?.status).toBe(200);
    v1.destroy();
    lines.push(await lineOf('fields-v1'));

    // The head went out, then the backend reset: the client's answer is cut.
    const cut = await openConnection(stack.url);
    cut.send(getReport(String(HEAD), 'rep_cut', 'fields-cut'));
    const answer = await within(5_000, cut.answer(0));
    expect(answer.closed).toBe(true);
    expect(answer.response?.status).toBe(200);
    expect(answer.response?.complete).toBe(false);
    const cutLine = await lineOf('fields-cut');
    expect(cutLine).toMatchObject({ status: 200, cut: true, error: 'UPSTREAM_UNAVAILABLE' });
    lines.push(cutLine);
    // The metrics count it as the client got it: its status, and the backend failure that cut it.
    const count = async (name: string, labels: Record<string, string>) =>
      (await stack.metrics.registry.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x))?.value;
    expect(await count('dlgw_requests_total', { version: String(HEAD), method: 'getReport', status: '200' })).toBe(1);
    expect(await count('dlgw_upstream_errors_total', { code: 'UPSTREAM_UNAVAILABLE' })).toBe(1);

    // The client leaves before its answer.
    const gone = await openConnection(stack.url);
    gone.send(getReport(String(HEAD), 'rep_slow', 'fields-gone'));
    await new Promise<void>((resolve) => upstream.events.once('request', () => resolve()));
    gone.destroy();
    const goneLine = await lineOf('fields-gone');
    expect(goneLine.status).toBe(499);
    lines.push(goneLine);

    const section = logsSection();
    const fields = [...new Set(lines.flatMap((l) => Object.keys(l)))].sort();
    const undocumented = fields.filter((name) => !section.includes(`\`${name}\``));
    expect(undocumented, 'request-line fields docs/operations.md ("## Logs") does not name').toEqual([]);
  });
});
