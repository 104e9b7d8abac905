// The OpenAPI documents the gateway serves: what each must say (security, tags, servers, the version header, the
// error answers), and `redocly lint` with its recommended rules finds no error and no warning in any of them.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { ROOT } from '../helpers/serve-process.js';
import { DURING_DEPRECATION, DURING_V1_ONLY, type Stack, startStack } from '../helpers/stack.js';

type Doc = Record<string, any>;

describe('the OpenAPI documents', () => {
  let stack: Stack;
  /** name → document, as served: each version now (v1 deprecated), /json/, and v1 while it was current. */
  const docs = new Map<string, Doc>();
  beforeAll(async () => {
    stack = await startStack({ now: DURING_DEPRECATION });
    for (const path of [...VERSIONS.map((v) => `/${v}/json/`), '/json/']) docs.set(path, (await (await fetch(`${stack.url}${path}`)).json()) as Doc);
    stack.setNow(DURING_V1_ONLY);
    docs.set('/1/json/ (current)', (await (await fetch(`${stack.url}/1/json/`)).json()) as Doc);
  });
  afterAll(() => stack.close());

  const operations = (doc: Doc) => Object.entries(doc.paths as Record<string, { post: Doc }>).map(([path, item]) => ({ path, op: item.post }));

  it('declare the bearer token and x-dl-org-id, and require them on every operation', () => {
    for (const [name, doc] of docs) {
      expect(doc.components.securitySchemes, name).toEqual({
        bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        orgId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-dl-org-id' }),
      });
      for (const { path, op } of operations(doc)) expect(op.security, `${name} ${path}`).toEqual([{ bearerAuth: [], orgId: [] }]);
    }
  });

  it('tag every operation with its method family, each tag described once', () => {
    const doc = docs.get('/2/json/')!;
    const tags = (doc.tags as { name: string; description: string }[]).map((t) => t.name);
    expect(new Set(tags).size).toBe(tags.length);
    for (const { path, op } of operations(doc)) {
      expect(op.tags, path).toHaveLength(1);
      expect(tags, path).toContain(op.tags[0]);
    }
    const tagOf = (method: string) => doc.paths[`/rpc/${method}`].post.tags[0];
    expect(tagOf('getEntries')).toBe('Entries');
    expect(tagOf('getWorkbookEntries')).toBe('Workbooks');
    expect(tagOf('startWorkbookExport')).toBe('Export and import');
    expect(tagOf('createQLChart')).toBe('QL charts');
    expect(tagOf('createReport')).toBe('Reports');
    expect(tags).not.toContain('Other');
  });

  it('name the gateway as the server, and fix the version header to the document\'s version', () => {
    for (const [name, doc] of docs) {
      expect(doc.servers, name).toEqual([expect.objectContaining({ url: '/' })]);
      const version = doc.info.version as string;
      expect(doc.components.parameters.ApiVersion, name).toMatchObject({
        name: 'x-dl-api-version',
        in: 'header',
        required: true,
        schema: { type: 'string', enum: [version], default: version },
      });
      for (const { path, op } of operations(doc)) {
        // The version header first; after it only the optional headers a real method declares (x-dl-audit-mode).
        expect(op.parameters[0], `${name} ${path}`).toEqual({ $ref: '#/components/parameters/ApiVersion' });
        for (const p of op.parameters.slice(1)) expect(p, `${name} ${path}`).toMatchObject({ in: 'header', required: false });
      }
    }
    expect(docs.get('/json/')!.info.version).toBe(String(HEAD));
  });

  it('list the 4xx (and 502/504) answers of every operation, each with a described body', () => {
    for (const [name, doc] of docs) {
      for (const { path, op } of operations(doc)) {
        const statuses = Object.keys(op.responses);
        expect(statuses, `${name} ${path}`).toEqual(['200', '400', '401', '403', '404', '409', '410', '413', '415', '422', '502', '504']);
      }
      for (const [status, ref] of Object.entries(doc.paths['/rpc/getReport'].post.responses as Record<string, { $ref?: string }>)) {
        if (status === '200') continue;
        const target = doc.components.responses[ref.$ref!.split('/').at(-1)!];
        expect(target.description, status).toEqual(expect.any(String));
        expect(Object.keys(target.content), status).toContain('application/problem+json');
      }
    }
  });

  it('mark a deprecated version\'s operations deprecated, and a current one\'s not', () => {
    expect(operations(docs.get('/1/json/')!).every(({ op }) => op.deprecated === true)).toBe(true);
    expect(operations(docs.get('/1/json/ (current)')!).some(({ op }) => op.deprecated)).toBe(false);
    expect(operations(docs.get(`/${HEAD}/json/`)!).some(({ op }) => op.deprecated)).toBe(false);
  });

  it('pass `redocly lint` (recommended rules) with no error and no warning', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlgw-openapi-'));
    try {
      const files = [...docs.entries()].map(([name, doc], i) => {
        const file = join(dir, `doc-${i}.json`);
        writeFileSync(file, JSON.stringify(doc));
        return { name, file };
      });
      const result = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends=recommended', '--format=json', ...files.map((f) => f.file)],
        // No usage reports or update checks from the test run: it must work offline.
        { cwd: dir, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      );
      // One JSON report per file, one after the other.
      const text = result.stdout.slice(result.stdout.indexOf('{'));
      const reports = JSON.parse(`[${text.replace(/}\s*{\s*"totals"/g, '},{"totals"')}]`) as { totals: { errors: number; warnings: number }; problems: unknown[] }[];
      expect(reports).toHaveLength(files.length);
      for (const [i, report] of reports.entries()) {
        expect(report.problems, files[i]!.name).toEqual([]);
        expect(report.totals, files[i]!.name).toMatchObject({ errors: 0, warnings: 0 });
      }
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
