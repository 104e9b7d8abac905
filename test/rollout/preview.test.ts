// Preview access through a real gateway in front of the reference backend: clients the calendar lists (by org id, or
// by their credential's hash as the metrics show it) call the head before its release date; everyone else is refused
// as unreleased; each preview call is counted per client. The config refuses anything else in a preview list.

import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/commands.js';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { HEAD, contractCalendar } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { memoryLog, sampleValue } from '../helpers/serve-process.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const DAY_MS = 86_400_000;
/** The head is released on this day; the test runs the day before it, then after it. */
const RELEASE = '2031-03-01';
const BEFORE = new Date(Date.parse(RELEASE) - DAY_MS);
const AFTER = new Date(Date.parse(RELEASE) + DAY_MS);

const CREDENTIAL = 'Bearer preview-team-token';
/** What the metrics call a caller with that credential: the first 12 hex digits of its sha256. */
const CRED_ID = `cred:${createHash('sha256').update(CREDENTIAL).digest('hex').slice(0, 12)}`;

const calendar = contractCalendar({ first: '2030-01-01', head: RELEASE, supportWindowDays: 365 });
/** The calendar with the head's preview list. */
const lifecycle = (preview: string[]) => ({
  ...calendar,
  versions: calendar.versions.map((v) => (v.version === HEAD ? { ...v, preview } : v)),
});

const log = memoryLog();
let stack: Stack;
/** A workbook saved by a client of the released version, so that every version can read it. */
let workbookId: string;
beforeAll(async () => {
  stack = await startStack({ now: BEFORE, logger: log.logger, config: { lifecycle: lifecycle(['org:acme-migrators', CRED_ID]) } });
  const created = await rpc(stack.url, 'createWorkbook', { collectionId: null, title: 'Preview', description: '' }, 'latest');
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  workbookId = created.body.workbookId;
});
afterAll(() => stack?.close());

const getWorkbook = (version: string, headers: Record<string, string>) => rpc(stack.url, 'getWorkbook', { workbookId }, version, headers);
const previewCount = async (client: string) => sampleValue(await stack.metrics.registry.metrics(), 'dlgw_preview_requests_total', { version: String(HEAD), client }) ?? 0;

describe('before the release date', () => {
  it('serves the head to a listed org id, with no lifecycle headers, and counts the call for that org', async () => {
    const before = await previewCount('org:acme-migrators');
    const res = await getWorkbook(String(HEAD), { 'x-dl-org-id': 'acme-migrators' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ workbookId });
    expect(res.headers.get('x-dl-api-version')).toBe(String(HEAD));
    expect(res.headers.get('deprecation')).toBeNull();
    expect(await previewCount('org:acme-migrators')).toBe(before + 1);
    const line = await log.waitFor((e) => e.msg === 'request' && e.requestId === res.headers.get('x-request-id'), 'the request line');
    expect(line).toMatchObject({ version: HEAD, preview: 'org:acme-migrators' });
  });

  it('serves the head to a listed credential (by its hash), whatever org it names, and counts it under the hash', async () => {
    const before = await previewCount(CRED_ID);
    for (const headers of [{ authorization: CREDENTIAL }, { authorization: CREDENTIAL, 'x-dl-org-id': 'some-other-org' }] as Record<string, string>[]) {
      const res = await getWorkbook(String(HEAD), headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await previewCount(CRED_ID)).toBe(before + 2);
  });

  it.each([
    ['an org not listed', { 'x-dl-org-id': 'acme' }],
    ['another credential', { authorization: 'Bearer someone-else' }],
    ['a caller with neither', {}],
    // The list names hashes: the credential's own text, or a hash's longer spelling, is nobody's name.
    ['a listed hash sent as the credential', { authorization: CRED_ID }],
  ])('refuses %s with 400 unreleased, as without preview', async (_, headers) => {
    const res = await getWorkbook(String(HEAD), headers);
    const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
    expect(details).toMatchObject({ reason: 'unreleased', received: String(HEAD), latest: HEAD - 1 });
    expect(details.supported).not.toContain(HEAD);
  });

  it('gives a preview client asking for latest the released version, not the preview', async () => {
    const before = await previewCount('org:acme-migrators');
    const res = await getWorkbook('latest', { 'x-dl-org-id': 'acme-migrators' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-dl-api-version')).toBe(String(HEAD - 1));
    expect(await previewCount('org:acme-migrators')).toBe(before);
  });
});

describe('from the release date', () => {
  it('serves the head to everyone, and no call counts as a preview any more', async () => {
    stack.setNow(AFTER);
    try {
      const before = await previewCount('org:acme-migrators');
      for (const headers of [{ 'x-dl-org-id': 'acme-migrators' }, { 'x-dl-org-id': 'acme' }, {}] as Record<string, string>[]) {
        const res = await getWorkbook(String(HEAD), headers);
        expect(res.status).toBe(200);
      }
      expect(await previewCount('org:acme-migrators')).toBe(before);
    } finally {
      stack.setNow(BEFORE);
    }
  });
});

describe('the preview list in the config', () => {
  const problems = (preview: string[]): string[] => {
    try {
      parseConfig({ upstream: { url: 'http://127.0.0.1:1' }, lifecycle: lifecycle(preview) });
      return [];
    } catch (e) {
      return (e as ConfigError).problems.map(String);
    }
  };

  it('accepts clients as the metrics name them', () => {
    expect(problems(['org:acme', 'org:a.b_c:d-e', CRED_ID])).toEqual([]);
  });

  it.each([['Bearer preview-team-token'], ['acme'], ['cred:ABCDEF012345'], ['cred:0123456789abcdef'], ['anonymous'], ['other'], ['org:']])(
    'refuses %s, naming the key and the expected form',
    (entry) => {
      const found = problems([entry]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^lifecycle\\.versions\\.${HEAD - 1}\\.preview\\.0: .*org:<x-dl-org-id> or cred:`));
    },
  );

  it('check-config prints who may preview a version not yet released', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dlgw-preview-')), 'gateway.yaml');
    // Released a year from now: whatever day the test runs, the head is not released yet.
    const head = new Date(Date.now() + 365 * DAY_MS).toISOString().slice(0, 10);
    const future = contractCalendar({ first: '2020-01-01', head, supportWindowDays: 365 });
    const versions = future.versions.map((v) => (v.version === HEAD ? { ...v, preview: ['org:acme-migrators', CRED_ID] } : v));
    writeFileSync(file, stringify({ upstream: { url: 'http://127.0.0.1:1' }, lifecycle: { ...future, versions } }));
    let out = '';
    const code = await runCli(['check-config', file], { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
    expect(code, out).toBe(0);
    expect(out).toContain(`v${HEAD} preview before ${head}: org:acme-migrators, ${CRED_ID}`);
  });
});
