// Deprecation inside a supported version: a contract that deprecates a method and a request field at the head
// from a date. The answers to calls that use them carry Deprecation (RFC 9745) from that date, the OpenAPI
// document marks them, the changelog lists them, and the impact report counts who uses them.

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { shippedContract } from '../../src/contract/index.js';
import { ContractError, loadContract } from '../../src/core/contract-model/load.js';
import type { Contract, VersionSpec } from '../../src/core/contract-model/types.js';
import { buildImpactReport } from '../../src/core/impact/report.js';
import { createImpactRecorder } from '../../src/adapters/impact/recorder.js';
import type { ImpactRecorder } from '../../src/ports/impact.js';
import { HEAD, deprecationSfDate } from '../helpers/calendar.js';
import { REPORT_CONTENT } from '../helpers/head-shapes.js';
import { CALENDAR, DURING_DEPRECATION, type Stack, rpc, startStack } from '../helpers/stack.js';

const METHOD_SINCE = '2026-11-01';
const FIELD_SINCE = '2026-11-15';
const sf = (day: string) => `@${Date.parse(day) / 1000}`;

const head = shippedContract.versions.at(-1) as VersionSpec;
const withDeprecations = (deprecations: VersionSpec['deprecations']): Contract => ({
  versions: [...shippedContract.versions.slice(0, -1), { ...head, deprecations }],
});
const CONTRACT = withDeprecations([
  { method: 'getReport', since: METHOD_SINCE, replacement: 'getEntries with scope report', description: 'Reports are read as entries.' },
  { method: 'getEntries', path: 'pageSize', since: FIELD_SINCE, replacement: '`limit`', description: 'The page size is renamed.' },
]);

describe('deprecation inside the head version', () => {
  let stack: Stack;
  let impact: ImpactRecorder;
  let reportId: string;
  beforeAll(async () => {
    impact = createImpactRecorder({
      limits: { maxClients: 10, maxPathsPerClient: 10 },
      logger: pino({ level: 'silent' }),
      metrics: createMetrics({ maxClients: 10, defaultMetrics: false }),
    });
    stack = await startStack({ contract: CONTRACT, now: DURING_DEPRECATION, impact });
    const created = await rpc(stack.url, 'createReport', { workbookId: 'wb_demo_marketing', [REPORT_CONTENT]: {} }, String(HEAD));
    expect(created.status).toBe(200);
    reportId = created.body.id;
  });
  afterAll(() => stack.close());

  it('an answer to a call sending the deprecated field carries Deprecation from its date; without the field, none', async () => {
    stack.setNow(DURING_DEPRECATION);
    const withField = await rpc(stack.url, 'getEntries', { pageSize: 1 }, String(HEAD), { 'x-dl-org-id': 'paged' });
    expect(withField.status).toBe(200);
    expect(withField.headers.get('deprecation')).toBe(sf(FIELD_SINCE));
    expect(withField.headers.get('sunset')).toBeNull();
    const without = await rpc(stack.url, 'getEntries', {}, String(HEAD));
    expect(without.status).toBe(200);
    expect(without.headers.get('deprecation')).toBeNull();
  });

  it('a deprecated method\'s answers carry Deprecation, not before its date', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getReport', { reportId }, String(HEAD), { 'x-dl-org-id': 'reader' });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe(sf(METHOD_SINCE));
    stack.setNow(new Date('2026-10-20T00:00:00Z'));
    const before = await rpc(stack.url, 'getReport', { reportId }, String(HEAD));
    expect(before.headers.get('deprecation')).toBeNull();
  });

  it('on a deprecated version, the version\'s own Deprecation stands', async () => {
    stack.setNow(DURING_DEPRECATION);
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.headers.get('deprecation')).toBe(deprecationSfDate(CALENDAR, 1));
  });

  it('the OpenAPI document marks the method and the field deprecated, with the replacement', async () => {
    const doc = (await (await fetch(`${stack.url}/${HEAD}/json`)).json()) as any;
    const op = doc.paths['/rpc/getReport'].post;
    expect(op.deprecated).toBe(true);
    expect(op.description).toContain('getEntries with scope report');
    let schema = doc.paths['/rpc/getEntries'].post.requestBody.content['application/json'].schema;
    if (schema.$ref) schema = doc.components.schemas[schema.$ref.split('/').at(-1)];
    expect(schema.properties.pageSize).toMatchObject({ deprecated: true });
    expect(schema.properties.pageSize.description).toContain('`limit`');
    expect(doc.paths['/rpc/getEntries'].post.deprecated).toBeUndefined();
  });

  it('the changelog lists both under the head version', async () => {
    const text = await (await fetch(`${stack.url}/changelog`)).text();
    const section = text.slice(text.indexOf(`## Version ${HEAD}`), text.indexOf(`## Version ${HEAD - 1}`));
    expect(section).toContain('### Deprecated');
    expect(section).toContain('`getReport`, from 2026-11-01: Reports are read as entries.');
    expect(section).toContain('`getEntries` field `pageSize`, from 2026-11-15');
  });

  it('the impact report counts who uses them', async () => {
    const report = buildImpactReport(loadContract(CONTRACT), stack.gateway.runtime().calendar, DURING_DEPRECATION, await impact.snapshot(), impact.store);
    const of = (client: string) => report.clients.find((c) => c.client === client)!.versions.find((v) => v.version === HEAD)!;
    expect(of('org:paged').deprecated).toEqual([expect.objectContaining({ method: 'getEntries', path: 'pageSize', calls: 1, replacement: '`limit`' })]);
    expect(of('org:reader').deprecated).toEqual([expect.objectContaining({ method: 'getReport', calls: 1 })]);
  });
});

describe('the contract\'s deprecations are checked when it loads', () => {
  it.each([
    [{ method: 'noSuchMethod', since: '2026-11-01', replacement: 'x', description: 'y' }, /no method noSuchMethod/],
    [{ method: 'getEntries', since: 'soon', replacement: 'x', description: 'y' }, /since must be an ISO date/],
    [{ method: 'getEntries', path: 'a..b', since: '2026-11-01', replacement: 'x', description: 'y' }, /getEntries a\.\.b/],
  ])('refuses %o', (deprecation, message) => {
    expect(() => loadContract(withDeprecations([deprecation]))).toThrow(ContractError);
    expect(() => loadContract(withDeprecations([deprecation]))).toThrow(message);
  });
});
