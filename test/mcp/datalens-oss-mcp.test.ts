// The DataLens MCP server (@datalens-tech/mcp), driven over stdio at DATALENS_API_VERSION=latest, in front of a
// gateway whose upstream is open-source DataLens (upstream.kind datalens-oss): here the recorded UI server
// (test/helpers/recorded-oss.ts) answering the internal routes from ../shared/reference/datalens-oss-internal-recordings.json
// in lookup mode. The MCP server makes its commands from the gateway's /json/, so it must offer none of the methods
// this backend has no route for, and the ones it offers must work through the version translation (3 → 1 → 3, or
// 3 → 2 → 3 for the methods added at version 2 it serves).
//
// Which recordings answer the calls made here (lookup mode: the first recording of the internal route whose body
// matches, else the first 2xx one of that route):
// - getWorkbook {workbookId: w…1}       → POST /gateway/root/us/getWorkbook {workbookId}        (entry "getWorkbook", 200)
// - getDashboard {dashboardId: e…4}     → POST /gateway/root/mix/getDashboardV1 {dashboardId}   (entry "getDashboard", 200)
// - getWizardChart {chartId: e…1}       → GET /api/charts/v1/charts/e…1                          (entry "getWizardChart", 200)

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bound, type RecordedEntry, type RecordedOss, startRecordedOss } from '../helpers/recorded-oss.js';
import { startStack, type Stack } from '../helpers/stack.js';

const REFERENCE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference');
const RECORDINGS = resolve(REFERENCE_DIR, 'datalens-oss-internal-recordings.json');
const present = existsSync(RECORDINGS);
if (!present) console.warn(`datalens-oss-mcp: skipped, ${RECORDINGS} is absent (the real recordings live outside the repository)`);
const entries: RecordedEntry[] = present ? (JSON.parse(readFileSync(RECORDINGS, 'utf8')) as { entries: RecordedEntry[] }).entries : [];

const MCP_ENTRY = createRequire(import.meta.url).resolve('@datalens-tech/mcp');
const TOKEN = 'mcp-oss-token';
const CALL_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 30_000;

const WORKBOOK = bound('<workbookId:1>');
const DASHBOARD = bound('<entryId:4>');
const CHART = bound('<entryId:1>');

/** Methods of the latest version the gateway does not serve in front of open-source DataLens (default services: bi). */
const NOT_SERVED_HERE = ['createReport', 'getReport', 'startWorkbookExport', 'getWorkbookExportStatus', 'listDirectory', 'moveFolderEntry', 'createEmbed', 'getPermissions'];
/**
 * Methods added at version 2 that it serves through the UI server's entry actions (src/edge/datalens-oss/routes.ts,
 * rows with `since: 2`), translated from the latest version down to 2. None is marked x-mcp-disabled.
 */
const SERVED_FROM_2 = ['renameEntry', 'createFolder', 'deleteFolder', 'getEditorChart', 'createEditorChart', 'updateEditorChart', 'deleteEditorChart'];
/** The commands it offers: the 40 methods with a version-1 route here (less the x-mcp-disabled chart writes), and SERVED_FROM_2. */
const COMMAND_COUNT = 40 + SERVED_FROM_2.length;

interface ToolText {
  readonly isError: boolean;
  readonly text: string;
}

describe.skipIf(!present)('the DataLens MCP server at DATALENS_API_VERSION=latest in front of open-source DataLens (recorded)', () => {
  let oss: RecordedOss;
  let stack: Stack;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    oss = await startRecordedOss(entries);
    oss.lookup();
    stack = await startStack({ upstreamUrl: oss.url, config: { upstream: { url: oss.url, kind: 'datalens-oss' } } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_ENTRY],
      env: {
        PATH: process.env.PATH ?? '',
        DATALENS_INSTALLATION: 'internal',
        DATALENS_API_URL: stack.url,
        DATALENS_API_VERSION: 'latest',
        DATALENS_OAUTH_TOKEN: TOKEN,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'dl-version-gateway-oss-test', version: '0.0.0' });
    try {
      await client.connect(transport, { timeout: START_TIMEOUT_MS });
    } catch (e) {
      throw new Error(`the MCP server did not start: ${(e as Error).message}\nits stderr:\n${stderr}`);
    }
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await stack?.close();
    await oss?.close();
  });

  async function callTool(name: string, args: Record<string, unknown>): Promise<ToolText> {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    const content = result.content as Array<{ type: string; text?: string }>;
    expect(content).toHaveLength(1);
    expect(content[0]?.type).toBe('text');
    return { isError: result.isError === true, text: content[0]?.text ?? '' };
  }

  const commandNames = async (): Promise<string[]> => {
    const listed = await callTool('list_commands', {});
    expect(listed.isError, listed.text).toBe(false);
    return (JSON.parse(listed.text) as Array<{ command_name: string }>).map((c) => c.command_name);
  };

  /** invoke_command, expected to succeed: its parsed answer, and what the recorded UI server was sent for it. */
  async function invoke(command: string, parameters: Record<string, unknown>) {
    oss.lookup();
    const result = await callTool('invoke_command', { command_name: command, parameters });
    expect(result.isError, `${command} failed:\n${result.text}`).toBe(false);
    return { text: result.text, answer: JSON.parse(result.text) as Record<string, unknown>, seen: [...oss.seen] };
  }

  it("lists none of the methods the gateway does not serve on this backend, and the ones it does", async () => {
    const names = await commandNames();
    expect(names.filter((n) => NOT_SERVED_HERE.includes(n))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['getWorkbook', 'getDashboard', 'getWizardChart', 'getCollectionContent', 'getConnection']));
    expect(names).toEqual(expect.arrayContaining(SERVED_FROM_2));
    expect(names).toHaveLength(COMMAND_COUNT);
    // The same list as the gateway's /json/ (the latest version's document, less the unrouted methods).
    const doc = (await (await fetch(`${stack.url}/json/`)).json()) as { paths: Record<string, { post?: Record<string, unknown> }> };
    const documented = Object.entries(doc.paths)
      .filter(([, item]) => item.post && item.post['x-mcp-disabled'] !== true)
      .map(([path]) => path.replace(/^\/rpc\//, ''));
    expect([...names].sort()).toEqual(documented.sort());
  });

  it('invokes getWorkbook: the recorded workbook, asked inside with the version-1 body and the token as the auth cookie', async () => {
    const { text, answer, seen } = await invoke('getWorkbook', { workbookId: WORKBOOK });
    expect(text).toContain(WORKBOOK);
    expect(answer.workbookId).toBe(WORKBOOK);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gateway/root/us/getWorkbook']);
    expect(seen[0]!.body).toEqual({ workbookId: WORKBOOK });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers.cookie).toBe(`auth=${encodeURIComponent(JSON.stringify({ accessToken: TOKEN }))}`);
    expect(seen[0]!.headers['x-dl-api-version']).toBeUndefined();
  });

  it('invokes getDashboard: the recorded dashboard', async () => {
    const { text, answer, seen } = await invoke('getDashboard', { dashboardId: DASHBOARD });
    expect(text).toContain(DASHBOARD);
    expect((answer.entry as { entryId?: unknown } | undefined)?.entryId).toBe(DASHBOARD);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gateway/root/mix/getDashboardV1']);
  });

  it('invokes getWizardChart: the recorded Wizard chart', async () => {
    const { text, answer, seen } = await invoke('getWizardChart', { chartId: CHART });
    expect(text).toContain(CHART);
    // The latest version wraps the chart in `entry`.
    expect(answer.entry).toMatchObject({ entryId: CHART, scope: 'widget', type: 'table_wizard_node', workbookId: WORKBOOK });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /api/charts/v1/charts/${CHART}`]);
  });

  it('reports a method it does not list as an unknown command, without reaching the UI server', async () => {
    oss.lookup();
    const result = await callTool('invoke_command', { command_name: 'createReport', parameters: { workbookId: WORKBOOK, content: {} } });
    expect(result).toEqual({ isError: true, text: 'Unknown command: createReport' });
    expect(oss.seen).toEqual([]);
  });
});
