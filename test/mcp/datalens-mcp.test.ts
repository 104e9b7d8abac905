// The DataLens MCP server (@datalens-tech/mcp), a client nobody here wrote, driven over stdio against a real gateway.
//
// What the package (0.1.3, dist/) does, read from its sources:
// - env: DATALENS_INSTALLATION (`internal` skips the cloud's DATALENS_ORG_ID and `yc`), DATALENS_API_URL (required
//   when internal), DATALENS_OAUTH_TOKEN (→ `Authorization: OAuth <token>`; DATALENS_API_AUTH_HEADER as fallback),
//   DATALENS_SCHEMA_URL (default `<DATALENS_API_URL>/json/`), DATALENS_API_VERSION (default `latest`),
//   DATALENS_MAX_RESPONSE_CHARS.
// - at start it GETs the schema URL once (header `content-type: application/json` only: no version, no auth) and
//   makes one command per `paths['/rpc/<name>'].post`; it exits if that fetch is not 2xx.
// - MCP tools: `list_commands`, `describe_commands {command_names}`, `invoke_command {command_name, parameters}`.
// - invoke: POST <DATALENS_API_URL>/rpc/<name> with `content-type: application/json`,
//   `x-dl-api-version: <DATALENS_API_VERSION>` and the Authorization header; a non-2xx answer becomes a tool result
//   `{isError: true}` whose text is `API call to POST /rpc/<name> failed: <status> <statusText>\n<body>`.
//
// At each DATALENS_API_VERSION, every listed command is invoked with the replay suite's real-shaped body and checked
// as the replay suite checks it (test/replay/expect-replay.ts).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IncomingHttpHeaders } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorCode, clientMessage } from '../../src/core/errors.js';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION } from '../helpers/head-shapes.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';
import { CONTRACT } from '../replay/contract.js';
import { type Answer, type Header, replay } from '../replay/expect-replay.js';
import { setupThrough } from '../replay/http.js';
import { knownDefect } from '../replay/known-defects.js';

const MCP_ENTRY = createRequire(import.meta.url).resolve('@datalens-tech/mcp'); // …/dist/index.js
const TOKEN = 'mcp-test-token';
/** Bounds every MCP round trip; the server's own fetch timeout is 30 s, far past the test's. */
const CALL_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 30_000;

interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

interface Mcp {
  readonly client: Client;
  /** What the gateway received from the moment this server was started. */
  readonly seen: SeenRequest[];
  stderr(): string;
  close(): Promise<void>;
}

interface ToolText {
  readonly isError: boolean;
  readonly text: string;
}

let stack: Stack;
/** Every request the gateway's listener received, observed beside (not instead of) its own handler. */
const gatewaySaw: SeenRequest[] = [];
const openServers = new Set<Mcp>();

beforeAll(async () => {
  stack = await startStack();
  stack.gateway.server.on('request', (req) => {
    gatewaySaw.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
  });
});

afterAll(async () => {
  await Promise.allSettled([...openServers].map((mcp) => mcp.close()));
  await stack?.close();
});

/** Spawns the MCP server against the gateway with only the environment it needs, and connects a client. */
async function startMcp(apiVersion: string, extraEnv: Record<string, string> = {}): Promise<Mcp> {
  const from = gatewaySaw.length;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_ENTRY],
    // The SDK adds its safe defaults (HOME, PATH, SHELL, TERM, USER, LOGNAME) to this.
    env: {
      PATH: process.env.PATH ?? '',
      DATALENS_INSTALLATION: 'internal',
      DATALENS_API_URL: stack.url,
      DATALENS_API_VERSION: apiVersion,
      DATALENS_OAUTH_TOKEN: TOKEN,
      ...extraEnv,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'dl-version-gateway-test', version: '0.0.0' });
  const mcp: Mcp = {
    client,
    get seen() {
      return gatewaySaw.slice(from);
    },
    stderr: () => stderr,
    close: async () => {
      openServers.delete(mcp);
      await client.close();
    },
  };
  openServers.add(mcp);
  try {
    await client.connect(transport, { timeout: START_TIMEOUT_MS });
  } catch (e) {
    await mcp.close().catch(() => undefined);
    throw new Error(`the MCP server did not start: ${(e as Error).message}\nits stderr:\n${stderr}`);
  }
  return mcp;
}

async function callTool(mcp: Mcp, name: string, args: Record<string, unknown>): Promise<ToolText> {
  const result = await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
  const content = result.content as Array<{ type: string; text?: string }>;
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  return { isError: result.isError === true, text: content[0]?.text ?? '' };
}

const invoke = (mcp: Mcp, command: string, parameters: Record<string, unknown>) =>
  callTool(mcp, 'invoke_command', { command_name: command, parameters });

/** The parsed answer of a tool call that succeeded; a failure shows the server's message. */
function ok(result: ToolText): any {
  if (result.isError) throw new Error(`expected success, the tool reported an error:\n${result.text}`);
  return JSON.parse(result.text);
}

/** The status and problem body of a failed invoke_command, as the MCP server reports a non-2xx answer. */
function failure(result: ToolText, command: string): { status: number; statusText: string; body: any } {
  expect(result.isError, `expected an error, got: ${result.text}`).toBe(true);
  const match = /^API call to POST \/rpc\/([A-Za-z0-9_]+) failed: (\d{3}) ([^\n]*)\n([\s\S]*)$/.exec(result.text);
  expect(match, result.text).not.toBeNull();
  const [, path, status, statusText, body] = match!;
  expect(path).toBe(command);
  return { status: Number(status), statusText: statusText!, body: JSON.parse(body!) };
}

function expectProblem(result: ToolText, command: string, status: number, code: string): any {
  const got = failure(result, command);
  expect(got.status).toBe(status);
  expect(got.body).toMatchObject({ status, code, message: expect.any(String), details: expect.any(Object) });
  expect(got.body.message).toBe(clientMessage(code as ErrorCode, got.body.detail));
  return got.body.details;
}

async function listCommands(mcp: Mcp): Promise<Array<{ command_name: string; summary: string }>> {
  return ok(await callTool(mcp, 'list_commands', {}));
}

async function describeCommand(mcp: Mcp, name: string): Promise<{ command_name: string; description: string; inputSchema: any }> {
  const [described] = ok(await callTool(mcp, 'describe_commands', { command_names: [name] }));
  return described;
}

async function openApiDocument(path: string): Promise<any> {
  const res = await fetch(`${stack.url}${path}`);
  expect(res.status).toBe(200);
  return res.json();
}

/** The commands the MCP server makes from /json/: the latest version's methods, but those marked x-mcp-disabled. */
const LATEST_METHODS = Object.entries(CONTRACT.byVersion.get(CONTRACT.head)!.methods)
  .filter(([, spec]) => !spec.mcpDisabled)
  .map(([name]) => name)
  .sort();
/** A document's operations the MCP server makes commands of: every POST without `x-mcp-disabled: true`. */
const commandsOf = (doc: any): string[] =>
  Object.entries<any>(doc.paths)
    .filter(([, item]) => item.post && item.post['x-mcp-disabled'] !== true)
    .map(([path]) => path.replace(/^\/rpc\//, ''))
    .sort();

/** A call as the MCP server makes it, read back as status and body (a tool error carries both in its text). */
async function invokeAsAnswer(mcp: Mcp, command: string, body: unknown): Promise<Answer> {
  const result = await invoke(mcp, command, (body ?? {}) as Record<string, unknown>);
  if (!result.isError) return { status: 200, body: JSON.parse(result.text) };
  const { status, body: problem } = failure(result, command);
  return { status, body: problem };
}

let reportSeq = 0;
const v1Report = () => ({ key: `reports/marketing/mcp-${++reportSeq}`, config: { chart: 'bars', n: reportSeq } });
const v2Report = () => ({ workbookId: 'wb_demo_marketing', config: { chart: 'lines', n: ++reportSeq } });
/** A createReport body of the head version (its settings field by the head's name). */
const headReport = () => ({ workbookId: 'wb_demo_marketing', [REPORT_CONTENT]: { chart: 'lines', n: ++reportSeq } });

interface VersionCase {
  /** DATALENS_API_VERSION, sent as x-dl-api-version. */
  readonly header: Header;
  /** What the gateway resolves it to (the stack's clock is after the head's release: latest = the head). */
  readonly resolved: number;
}

describe.each<VersionCase>([
  { header: '1', resolved: 1 },
  { header: `${HEAD}`, resolved: HEAD },
  { header: 'latest', resolved: HEAD },
])('the DataLens MCP server at DATALENS_API_VERSION=$header', ({ header, resolved }) => {
  let mcp: Mcp;
  beforeAll(async () => {
    mcp = await startMcp(header);
  }, START_TIMEOUT_MS + 5_000);
  afterAll(() => mcp?.close());

  it('offers the three gateway tools over MCP', async () => {
    const { tools } = await mcp.client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    expect(tools.map((t) => t.name).sort()).toEqual(['describe_commands', 'invoke_command', 'list_commands']);
  });

  it("loads its commands from the gateway's /json/ (the latest version's document), one per method", async () => {
    const schemaFetches = mcp.seen.filter((r) => r.method === 'GET' && /^\/json\/?$/.test(r.url));
    expect(schemaFetches).toHaveLength(1);
    // It sends neither a version nor credentials for the schema: /json/ must be public and version-free.
    expect(schemaFetches[0]!.headers['x-dl-api-version']).toBeUndefined();
    expect(schemaFetches[0]!.headers.authorization).toBeUndefined();

    const commands = await listCommands(mcp);
    const names = commands.map((c) => c.command_name);
    expect(names).toEqual(expect.arrayContaining(['createReport', 'getReport', 'updateReport', 'deleteReport', 'getEntries']));
    const latest = await openApiDocument('/json/');
    expect(latest.info.version).toBe(String(HEAD));
    expect(names.sort()).toEqual(commandsOf(latest));
    // The summaries are the latest document's, whatever version the server was configured for.
    expect(commands.find((c) => c.command_name === 'createReport')?.summary).toBe('Creates a report in a workbook.');
  });

  it("describes createReport with the latest document's self-contained input schema", async () => {
    const described = await describeCommand(mcp, 'createReport');
    expect(described.inputSchema).toMatchObject({
      type: 'object',
      properties: { workbookId: { type: 'string' }, [REPORT_CONTENT]: { type: 'object' }, [REPORT_DESCRIPTION]: { type: 'string' } },
      required: ['workbookId', REPORT_CONTENT],
    });
    // At version 1 this is the wrong schema for the calls it sends (they need `key`): see the /1/json/ block below.
    expect(JSON.stringify(described.inputSchema)).not.toMatch(/#\/components\//);
  });

  it('lists one command per method of the latest version, but those marked x-mcp-disabled', async () => {
    expect((await listCommands(mcp)).map((c) => c.command_name).sort()).toEqual(LATEST_METHODS);
  });

  // Every listed command with a real-shaped body (test/replay/fixtures): 200 and an answer of this version's shape,
  // or, for a method this version lacks, the gateway's 404 ENDPOINT_NOT_FOUND naming the versions that have it.
  describe('invokes every command it lists, with a real-shaped body', () => {
    for (const command of LATEST_METHODS) {
      const defect = knownDefect(command, resolved);
      const run = () => replay(command, header, (body) => invokeAsAnswer(mcp, command, body), setupThrough(stack.url));
      if (defect === undefined) it(command, run);
      else it(`${command} fails as known: ${defect.what}`, () => expect(run()).rejects.toThrow(defect.shows));
    }
  });

  it('sends x-dl-api-version, JSON and its OAuth token; the gateway resolves the version and forwards the token', async () => {
    const before = stack.backend!.requests.length;
    const seenBefore = mcp.seen.length;
    ok(await invoke(mcp, 'getEntries', { pageSize: 1 }));
    const call = mcp.seen.slice(seenBefore).find((r) => r.url === '/rpc/getEntries');
    expect(call).toMatchObject({
      method: 'POST',
      headers: { 'x-dl-api-version': header, 'content-type': 'application/json', authorization: `OAuth ${TOKEN}` },
    });
    expect(call!.headers['x-dl-org-id']).toBeUndefined();
    const forwarded = stack.backend!.requests.slice(before).filter((r) => r.url === '/rpc/getEntries');
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.headers).toMatchObject({
      authorization: `OAuth ${TOKEN}`,
      'x-dl-api-version': String(HEAD),
      'x-dl-client-api-version': String(resolved),
    });
  });

  if (resolved === 1) {
    it("creates a report by key and reads it back in version 1's shape", async () => {
      const body = v1Report();
      const created = ok(await invoke(mcp, 'createReport', body));
      expect(created).toMatchObject({ key: body.key, config: body.config, description: '', version: 1 });
      expect(created).not.toHaveProperty('workbookId');
      const read = ok(await invoke(mcp, 'getReport', { reportId: created.id }));
      expect(read).toMatchObject({ id: created.id, key: body.key, config: body.config, version: 1 });
      expect(read).not.toHaveProperty('workbookId');
      expect(read).not.toHaveProperty('legacyKey');
    });

    it('lists entries by page number', async () => {
      const first = ok(await invoke(mcp, 'getEntries', { page: 0, pageSize: 5 }));
      const second = ok(await invoke(mcp, 'getEntries', { page: 1, pageSize: 5 }));
      expect(second.entries).toHaveLength(5);
      expect(second.entries[0]).toMatchObject({ entryId: expect.any(String), key: expect.any(String), scope: expect.any(String) });
      const ids = (list: any) => list.entries.map((e: any) => e.entryId);
      expect(ids(second)).not.toEqual(expect.arrayContaining(ids(first)));
    });

    it('accepts a single id where version 2 wants an array', async () => {
      const listed = ok(await invoke(mcp, 'getEntries', { ids: 'ent_demo_03' }));
      expect(listed.entries.map((e: any) => e.entryId)).toEqual(['ent_demo_03']);
    });

    it('reports a key no workbook holds as a tool error carrying 422 VERSION_TRANSLATION_FAILED', async () => {
      const result = await invoke(mcp, 'createReport', { key: 'nowhere/x', config: { a: 1 } });
      const details = expectProblem(result, 'createReport', 422, 'VERSION_TRANSLATION_FAILED');
      expect(details).toMatchObject({ field: 'key', key: 'nowhere/x' });
    });

    it('reports a report saved at version 2 as a tool error carrying 409 UNSUPPORTED_OBJECT_VERSION', async () => {
      // Saved under version 2, as the web UI (always latest) would.
      const saved = await rpc(stack.url, 'createReport', v2Report(), '2');
      expect(saved.status).toBe(200);
      expect(saved.body.version).toBe(2);
      const result = await invoke(mcp, 'getReport', { reportId: saved.body.id });
      const details = expectProblem(result, 'getReport', 409, 'UNSUPPORTED_OBJECT_VERSION');
      expect(details).toMatchObject({ objectId: saved.body.id, objectVersion: 2, requestedVersion: 1, minVersion: 2 });
    });
  } else {
    it("creates a report in a workbook and reads it back in the head's shape", async () => {
      const body = headReport();
      const created = ok(await invoke(mcp, 'createReport', body));
      expect(created).toMatchObject({ ...body, [REPORT_DESCRIPTION]: '', version: HEAD });
      expect(created).not.toHaveProperty('key');
      const read = ok(await invoke(mcp, 'getReport', { reportId: created.id }));
      expect(read).toMatchObject({ id: created.id, ...body, version: HEAD });
      expect(read).not.toHaveProperty('key');
    });

    it('lists entries a page at a time, following nextPageToken', async () => {
      const first = ok(await invoke(mcp, 'getEntries', { pageSize: 5 }));
      expect(first.entries).toHaveLength(5);
      expect(first.nextPageToken).toEqual(expect.any(String));
      const second = ok(await invoke(mcp, 'getEntries', { pageSize: 5, pageToken: first.nextPageToken }));
      expect(second.entries).toHaveLength(5);
      expect(second.entries[0].entryId).not.toBe(first.entries[0].entryId);
    });

    it("reads a report created at version 1 in the head's shape, with its legacy key", async () => {
      const body = v1Report();
      const saved = await rpc(stack.url, 'createReport', body, '1');
      expect(saved.status).toBe(200);
      const read = ok(await invoke(mcp, 'getReport', { reportId: saved.body.id }));
      expect(read).toMatchObject({ id: saved.body.id, workbookId: 'wb_demo_marketing', legacyKey: body.key });
    });

    it('reports a version 1 body (key) as a tool error carrying 400 VALIDATION_ERROR', async () => {
      const result = await invoke(mcp, 'createReport', v1Report());
      const details = expectProblem(result, 'createReport', 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(details)).toContain('workbookId');
    });

    it('reports a single id where the head wants an array as a tool error carrying 400 VALIDATION_ERROR', async () => {
      const result = await invoke(mcp, 'getEntries', { ids: 'ent_demo_03' });
      const details = expectProblem(result, 'getEntries', 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(details)).toContain('ids');
    });
  }
});

describe('the DataLens MCP server at DATALENS_API_VERSION=1 with DATALENS_SCHEMA_URL=<gateway>/1/json/', () => {
  // With the default schema URL a version-1 server describes version 2's commands (above): an agent that follows
  // describe_commands then sends `workbookId` at version 1 and gets 400. Pointing it at /1/json/ fixes that.
  let mcp: Mcp;
  beforeAll(async () => {
    mcp = await startMcp('1', { DATALENS_SCHEMA_URL: `${stack.url}/1/json/` });
  }, START_TIMEOUT_MS + 5_000);
  afterAll(() => mcp?.close());

  it("loads version 1's document and describes createReport and getEntries as version 1 takes them", async () => {
    expect(mcp.seen.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual(['/1/json/']);
    const createReport = await describeCommand(mcp, 'createReport');
    expect(createReport.inputSchema).toMatchObject({ properties: { key: { type: 'string' } }, required: ['key', 'config'] });
    expect(createReport.inputSchema.properties).not.toHaveProperty('workbookId');
    const getEntries = await describeCommand(mcp, 'getEntries');
    expect(getEntries.inputSchema.properties).toHaveProperty('page');
    expect(getEntries.inputSchema.properties).not.toHaveProperty('pageToken');
  });

  it('creates a report with the body its description asks for', async () => {
    const body = v1Report();
    const created = ok(await invoke(mcp, 'createReport', body));
    expect(created).toMatchObject({ key: body.key, version: 1 });
  });

  it("an agent that followed the default (latest) description would send `workbookId` at version 1 and get 400", async () => {
    const result = await invoke(mcp, 'createReport', v2Report());
    const details = expectProblem(result, 'createReport', 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(details)).toContain('key');
  });
});

// Against the real API the MCP server offers 84 commands: the real version 3's 88 paths
// (datalens-tech/datalens-sdk spec/yacloud.json @ 021501bb) less the 4 it marks x-mcp-disabled (QL and Wizard chart writes).
describe('the DataLens MCP server at DATALENS_API_VERSION=latest with DATALENS_SCHEMA_URL=<gateway>/latest/json/', () => {
  const REAL_COMMANDS = 84;
  const DISABLED = ['createQLChart', 'createWizardChart', 'updateQLChart', 'updateWizardChart'];
  /** The real spec's path index with its marks, beside the repository root; absent in a clean clone. */
  const PATH_INDEX = new URL('../../../shared/reference/datalens-api-v3-paths.json', import.meta.url);
  let mcp: Mcp;
  beforeAll(async () => {
    mcp = await startMcp('latest', { DATALENS_SCHEMA_URL: `${stack.url}/latest/json/` });
  }, START_TIMEOUT_MS + 5_000);
  afterAll(() => mcp?.close());

  it("starts from /latest/json/, the latest version's document, and offers the real API's 84 commands", async () => {
    expect(mcp.seen.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual(['/latest/json/']);
    const names = (await listCommands(mcp)).map((c) => c.command_name).sort();
    expect(names).toHaveLength(REAL_COMMANDS);
    expect(names.filter((n) => DISABLED.includes(n))).toEqual([]);
    expect(await openApiDocument('/latest/json/')).toEqual(await openApiDocument('/json/'));
  });

  it.skipIf(!existsSync(PATH_INDEX))("offers exactly the real spec's methods that it does not mark x-mcp-disabled", async () => {
    const index = JSON.parse(readFileSync(PATH_INDEX, 'utf8')) as { methods: { method: string; x_mcp_disabled: boolean }[] };
    const real = index.methods.filter((m) => !m.x_mcp_disabled).map((m) => m.method).sort();
    expect((await listCommands(mcp)).map((c) => c.command_name).sort()).toEqual(real);
  });

  it('shows an experimental method as the real spec does, and knows no command for a disabled one', async () => {
    const commands = await listCommands(mcp);
    expect(commands.find((c) => c.command_name === 'getQLChart')?.summary).toMatch(/^🚧 \[Experimental\] /);
    const result = await invoke(mcp, 'createQLChart', {});
    expect(result).toEqual({ isError: true, text: 'Unknown command: createQLChart' });
  });
});

describe('the commands the MCP server derives from the OpenAPI document', () => {
  let mcp: Mcp;
  beforeAll(async () => {
    mcp = await startMcp('latest');
  }, START_TIMEOUT_MS + 5_000);
  afterAll(() => mcp?.close());

  it('has every /rpc/<method> of /json/ as a POST operation with a JSON request body', async () => {
    const doc = await openApiDocument('/json/');
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path).toMatch(/^\/rpc\/[A-Za-z][A-Za-z0-9_]*$/);
      expect(item.post?.requestBody?.content?.['application/json']?.schema, path).toEqual(expect.any(Object));
    }
  });

  it('resolves every $ref of every command to a definition', async () => {
    const names = (await listCommands(mcp)).map((c) => c.command_name);
    const described = ok(await callTool(mcp, 'describe_commands', { command_names: names }));
    expect(described).toHaveLength(names.length);
    const unresolved = JSON.stringify(described).match(/Unresolved reference: [^"]*/g) ?? [];
    expect(unresolved).toEqual([]);
  });

  // The MCP server shows `summary — description`: the document must not repeat the summary as description.
  it('describes each command without repeating its summary', async () => {
    const described = await describeCommand(mcp, 'createReport');
    expect(described.description).toBe('Creates a report in a workbook.');
  });
});
