// A recorded open-source DataLens UI server on loopback: it answers the internal routes (`/gateway/root/...`, the
// charts engine's `/api/charts/v1/charts...`) with the answers recorded on a real build
// (../shared/reference/datalens-oss-internal-recordings.json, read by the caller at run time), placeholders bound to
// fixed values. In order (`expect`) it answers the one recorded call the test is making and keeps what it was sent;
// otherwise (`lookup`) it answers any recorded internal request it matches. A `us.getEntry` it has no recording
// for (the scope check before a chart update) it answers from the entries its answers have shown so far.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedExchange {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface RecordedAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface RecordedEntry {
  readonly label: string;
  readonly publicMethod: string;
  readonly note: string;
  /** Null for a call only the public controller answered (version header, unknown method): its answer is `publicAnswer`. */
  readonly internal: RecordedExchange | null;
  readonly answer: RecordedAnswer | null;
  readonly public: RecordedExchange;
  readonly publicAnswer: RecordedAnswer;
}

/** A request the server received, as it came. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

const KINDS: Readonly<Record<string, string>> = { collectionId: 'c', workbookId: 'w', entryId: 'e', revId: 'r', operationId: 'o' };
const PLACEHOLDER = /<(collectionId|workbookId|entryId|revId|operationId):(\d+)>|<time>|<uuid>|<workbookNumericId>|<run>/g;

/** The value each placeholder stands for: 13-character ids as United Storage makes them, fixed times and names. */
function valueOf(match: string, kind?: string, n?: string): string {
  if (kind !== undefined && n !== undefined) return `${KINDS[kind]}${n.padStart(12, '0')}`;
  switch (match) {
    case '<time>':
      return '2026-11-28T21:25:47.736Z';
    case '<uuid>':
      return '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    case '<workbookNumericId>':
      return '1834512876543210987';
    default:
      return 'r42'; // <run>
  }
}

/** `value` with every placeholder bound (inside strings too: names, keys, a chart's `shared` JSON); `<requestId>` to `requestId`. */
export function bound<T>(value: T, requestId = ''): T {
  if (value === undefined) return value;
  const text = JSON.stringify(value)
    .replace(PLACEHOLDER, (match, kind?: string, n?: string) => valueOf(match, kind, n))
    .replaceAll('<requestId>', requestId);
  return JSON.parse(text) as T;
}

/** Entries (objects with entryId, scope and type) anywhere in `value`, by id. */
function learnEntries(value: unknown, into: Map<string, Record<string, unknown>>): void {
  if (Array.isArray(value)) for (const item of value) learnEntries(item, into);
  else if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>;
    if (typeof o.entryId === 'string' && typeof o.scope === 'string' && typeof o.type === 'string') into.set(o.entryId, o);
    for (const v of Object.values(o)) learnEntries(v, into);
  }
}

export interface RecordedOss {
  readonly url: string;
  /** Ordered mode: the next internal request of the recorded call `entry` gets its recorded answer. */
  expect(entry: RecordedEntry): void;
  /** Lookup mode: any request is answered by the first recorded call it matches. */
  lookup(): void;
  /** What the server received since the last expect(). */
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A recorded server for `all` the recorded calls, in lookup mode until expect() is called. */
export async function startRecordedOss(all: readonly RecordedEntry[]): Promise<RecordedOss> {
  let current: RecordedEntry | undefined;
  const entries = new Map<string, Record<string, unknown>>();
  const seen: SeenRequest[] = [];

  const answerFor = (req: SeenRequest): RecordedAnswer | undefined => {
    const requestId = String(req.headers['x-request-id'] ?? '');
    const matches = (e: RecordedEntry) => e.internal !== null && e.internal.method === req.method && bound(e.internal.path) === req.path;
    if (current?.internal === null && current.publicAnswer.status < 300) return bound(current.publicAnswer, requestId);
    if (current?.internal) return matches(current) ? bound(current.answer ?? undefined, requestId) : undefined;
    // Lookup mode, or a call the public controller refused itself that the gateway serves (another version): any recording of that route.
    const candidates = all.filter(matches);
    const exact = candidates.find((e) => sameJson(bound(e.internal?.body), req.body)) ?? candidates.find((e) => (e.answer?.status ?? 500) < 300);
    return exact?.answer ? bound(exact.answer, requestId) : undefined;
  };

  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const request: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    seen.push(request);
    let answer = answerFor(request);
    if (!answer && request.method === 'POST' && request.path === '/gateway/root/us/getEntry') {
      const id = String((body as { entryId?: unknown } | null)?.entryId);
      const entry = entries.get(id);
      answer = entry
        ? { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: entry }
        : { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: { status: 404, code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist' } };
    }
    if (!answer) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<pre>Cannot ${request.method} ${request.path}</pre>`);
      return;
    }
    learnEntries(answer.body, entries);
    const text = answer.body === null || answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    expect(entry) {
      current = entry;
      seen.length = 0;
    },
    lookup() {
      current = undefined;
      seen.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
