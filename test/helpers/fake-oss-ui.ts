// A scripted stand-in for open-source DataLens's UI server, and a real gateway in front of it
// (upstream.kind datalens-oss): the server records what it is sent and answers per method and path (everything else:
// Express's 404 "Cannot <METHOD> <path>"). Shared by test/edge/datalens-oss*.test.ts.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type Stack } from './stack.js';

// ── the scripted UI server ──────────────────────────────────────────────────

export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  readonly json: unknown;
}

export interface Reply {
  readonly status: number;
  /** An object is sent as JSON; a string as it is. */
  readonly body?: unknown;
  readonly type?: string;
}

export type Answer = Reply | ((req: Seen) => Reply);

export interface FakeUi {
  readonly url: string;
  readonly seen: Seen[];
  /** Answers `method path` (the path with its query) with `answer` from now on. */
  on(method: string, path: string, answer: Answer): void;
  /** Forgets the answers and what was seen. */
  reset(): void;
  close(): Promise<void>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export async function startFakeUi(): Promise<FakeUi> {
  const seen: Seen[] = [];
  const answers = new Map<string, Answer>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const request: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, json };
    seen.push(request);
    const answer = answers.get(`${request.method} ${request.path}`);
    const reply: Reply = typeof answer === 'function' ? answer(request) : (answer ?? {
      status: 404,
      type: 'text/html; charset=utf-8',
      body: `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${request.method} ${request.path}</pre>\n</body>\n</html>\n`,
    });
    const payload = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': reply.type ?? JSON_TYPE, 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    on(method, path, answer) {
      answers.set(`${method} ${path}`, answer);
    },
    reset() {
      answers.clear();
      seen.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ── the gateway in front of it ──────────────────────────────────────────────

export type OssSettings = { authCookie?: string; services?: Array<'bi' | 'meta-manager'> };

export interface OssStackOptions {
  readonly datalensOss?: OssSettings;
  /** Appended to the fake's origin: the UI server under a base path. */
  readonly basePath?: string;
  /** Other config sections merged over the stack's. */
  readonly config?: Record<string, unknown>;
}

export const startOssStack = (ui: FakeUi, options: OssStackOptions = {}): Promise<Stack> => {
  const url = ui.url + (options.basePath ?? '');
  return startStack({
    upstreamUrl: url,
    config: { ...options.config, upstream: { url, kind: 'datalens-oss', ...(options.datalensOss && { datalensOss: options.datalensOss }) } },
  });
};

/** A gateway with its own fake UI server, for the tests that need another config. */
export async function withOss<T>(options: OssStackOptions, run: (ui: FakeUi, stack: Stack) => Promise<T>): Promise<T> {
  const ui = await startFakeUi();
  const stack = await startOssStack(ui, options);
  try {
    return await run(ui, stack);
  } finally {
    await stack.close();
    await ui.close();
  }
}
