// The reference backend serves every method of the contract's head: for each head method, bodies generated from its
// head request schema reach a handler that takes them. A declared change at the head (a renamed method or field) that
// the backend was not taught fails here, not in production: no 404 ENDPOINT_NOT_FOUND, no VALIDATION_ERROR over which
// fields exist, no 5xx, and a NOT_FOUND names something the body sent (a handler that reads a field the body does not
// have finds nothing by `undefined`). Then the check fails on contracts the backend was not taught, and a version above
// the head that only renames fields (a report's, a workbook's, a dashboard's) is served with no edit to the backend.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shippedContract } from '../../src/contract/index.js';
import { ContractError } from '../../src/core/contract-model/load.js';
import { fieldRemoved, fieldRenamed, object, request } from '../../src/core/contract-model/builders.js';
import type { Change, Contract, MethodSpec, VersionSpec } from '../../src/core/contract-model/types.js';
import { NATIVE_VERSION } from '../../src/reference-backend/head-bridge.js';
import { DEMO_SEED, createReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION, headName } from '../helpers/head-shapes.js';
import { arbitraryOf } from '../helpers/json-schema-arbitrary.js';

/** Every string a body holds, at any depth. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Deep enough for a dashboard's items and a Wizard document's fields (entry.data.tabs[].items[].data…). */
const DEPTH = 9;
/** Generated bodies per body sent: about one in thirty generated dashboards passes the DashboardV2 schema. */
const SAMPLES_PER_BODY = 50;

interface Answer {
  readonly status: number;
  readonly body: { code?: string; message?: string; details?: Record<string, unknown> };
}

/** The key the generator adds where a schema keeps unknown keys. */
const UNNAMED = 'x_unnamed_field';

/** The body without UNNAMED: only what the head declares is checked. */
function declaredOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(declaredOnly);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== UNNAMED).map(([k, v]) => [k, declaredOnly(v)]));
}

/**
 * A refusal that shows the backend and the head disagree on the fields themselves: a field the head declares that the
 * backend does not know, or one the backend requires that the body (of declared fields only) lacks. The backend may
 * check values further than the head schema, as the real one does (getEntries' `scope`, its own page tokens).
 */
const FIELD_DISAGREEMENT = /^Unrecognized field|received undefined|^Required$/;

/**
 * Why an answer to a schema-valid body shows the backend does not serve the head's method; undefined when it does.
 * `open`: the head declares no argument (the method's arguments are the backend's, v2-listed-methods.ts), so only the
 * method's presence and the absence of failures say anything.
 */
function notServed(sent: unknown, answer: Answer, open: boolean): string | undefined {
  const { status, body } = answer;
  const said = `${status} ${body.code}: ${body.message}`;
  if (status === 404 && body.code === 'ENDPOINT_NOT_FOUND') return `the backend has no such method (${said})`;
  const issues = (body.details?.issues ?? []) as { message?: string }[];
  if (body.code === 'VALIDATION_ERROR' && issues.some((issue) => FIELD_DISAGREEMENT.test(issue.message ?? ''))) return `the backend and the head disagree on the fields (${said} ${JSON.stringify(body.details)})`;
  if (status >= 500) return `the handler failed on a body the head's schema accepts (${said})`;
  if (body.code === 'NOT_FOUND' && !open) {
    const named = Object.values(body.details ?? {}).filter((v): v is string => typeof v === 'string');
    const held = strings(sent);
    if (!named.some((v) => held.has(v))) return `the handler looked up something the body did not send (${said} ${JSON.stringify(body.details)})`;
  }
  return undefined;
}

/** Methods of `contract`'s head whose generated bodies the reference backend (of that contract) does not serve. */
async function unservedMethods(contract: Contract, numRuns: number, only?: readonly string[]): Promise<Record<string, string>> {
  const head = contract.versions.at(-1) as VersionSpec;
  const backend = createReferenceBackend({ contract, seed: DEMO_SEED });
  const url = await backend.listen(0, '127.0.0.1');
  const found: Record<string, string> = {};
  try {
    for (const [method, spec] of Object.entries(head.methods) as [string, MethodSpec][]) {
      if (only && !only.includes(method)) continue;
      const schema = z.toJSONSchema(spec.request, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      const open = Object.keys((schema.properties ?? {}) as object).length === 0;
      // The first `numRuns` generated bodies the head schema accepts (deep documents need many tries to get there).
      const arbitrary = arbitraryOf(schema, 0, DEPTH);
      const bodies: unknown[] = [];
      for (let batch = 0; bodies.length < numRuns && batch < SAMPLES_PER_BODY; batch++) {
        for (const generated of fc.sample(arbitrary, { numRuns, seed: 2026 + batch })) {
          const sent = declaredOnly(JSON.parse(JSON.stringify(generated ?? {}))); // as it travels
          if (bodies.length < numRuns && spec.request.safeParse(sent).success) bodies.push(sent);
        }
      }
      if (bodies.length === 0) found[method] = 'no generated body passed the head schema: nothing reached the backend';
      for (const sent of bodies) {
        const res = await fetch(`${url}/rpc/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-dl-api-version': String(head.version) },
          body: JSON.stringify(sent),
        });
        const why = notServed(sent, { status: res.status, body: (await res.json()) as Answer['body'] }, open);
        if (why) {
          found[method] = `${why}; body ${JSON.stringify(sent).slice(0, 300)}`;
          break;
        }
      }
    }
  } finally {
    await backend.close();
  }
  return found;
}

describe('the reference backend serves the head', () => {
  it(`takes bodies generated from every version-${HEAD} request schema at a handler`, async () => {
    expect(await unservedMethods(shippedContract, 10)).toEqual({});
  }, 120_000);
});

/** The shipped contract with its head's methods changed by `edit`, as a version declaring a rename would have them. */
function withHeadMethods(edit: (methods: Record<string, MethodSpec>) => Record<string, MethodSpec>): Contract {
  const versions = shippedContract.versions;
  const head = versions.at(-1) as VersionSpec;
  return { versions: [...versions.slice(0, -1), { ...head, methods: edit({ ...head.methods }) }] };
}

describe('the check fails when the backend was not taught a change at the head', () => {
  it('a renamed method: the backend refuses the contract at start, naming the method it has no handler for', () => {
    const contract = withHeadMethods(({ getWorkbook, ...rest }) => ({ ...rest, getWorkbookById: getWorkbook as MethodSpec }));
    expect(() => createReferenceBackend({ contract })).toThrow(ContractError);
    expect(() => createReferenceBackend({ contract })).toThrow(new RegExp(`no handler for getWorkbookById of version ${HEAD}`));
  });

  it("a renamed request field of a dashboard method: the backend's handler reads the old name and finds nothing", async () => {
    const contract = withHeadMethods((methods) => {
      const spec = methods.getDashboard as MethodSpec;
      const request = spec.request as z.ZodObject;
      const { dashboardId, ...others } = request.shape;
      return { ...methods, getDashboard: { ...spec, request: z.strictObject({ ...others, id: dashboardId as z.ZodType }) } };
    });
    const found = await unservedMethods(contract, 5, ['getDashboard', 'getWorkbook']);
    expect(Object.keys(found)).toEqual(['getDashboard']);
    expect(found.getDashboard).toMatch(/looked up something the body did not send|disagree on the fields|handler failed/);
  });
});

/** An object schema with `from` renamed `to`, keeping its rule for unknown keys. */
const renamedKey = (from: string, to: string) => (schema: z.ZodType): z.ZodType => {
  const { [from]: kept, ...others } = (schema as z.ZodObject).shape;
  return (schema as z.ZodObject).pick({}).extend({ ...others, [to]: kept as z.ZodType });
};
/** An object schema with the object under `key` edited. */
const at = (key: string, edit: (s: z.ZodType) => z.ZodType) => (schema: z.ZodType): z.ZodType =>
  (schema as z.ZodObject).extend({ [key]: edit((schema as z.ZodObject).shape[key] as z.ZodType) });

const NEXT = HEAD + 1;
/** The head's names the next version renames (a report's description, a workbook's title, a dashboard's data.salt) and their new names. */
const REPORT_FROM = REPORT_DESCRIPTION;
const REPORT_TO = 'synopsis';
const WORKBOOK_FROM = headName(object('workbook'), 'title');
const WORKBOOK_TO = 'name';
const [DASH_DATA, DASH_FROM] = headName(object('dashboard'), 'data.salt').split('.') as [string, string];
const DASH_TO = 'seed';
/** The head's methods with the next version's renames applied to their requests (what the backend is sent). */
function nextMethods(head: VersionSpec): Record<string, MethodSpec> {
  const edit = (name: string, request: (s: z.ZodType) => z.ZodType): [string, MethodSpec] => [name, { ...(head.methods[name] as MethodSpec), request: request((head.methods[name] as MethodSpec).request) }];
  const report = renamedKey(REPORT_FROM, REPORT_TO);
  const workbook = renamedKey(WORKBOOK_FROM, WORKBOOK_TO);
  const dashboard = at('entry', at(DASH_DATA, renamedKey(DASH_FROM, DASH_TO)));
  return {
    ...head.methods,
    ...Object.fromEntries([
      edit('createReport', report), edit('updateReport', report),
      edit('createWorkbook', workbook), edit('updateWorkbook', workbook), edit('moveWorkbook', workbook),
      edit('createDashboard', dashboard), edit('updateDashboard', dashboard),
    ]),
  };
}

/** The shipped contract and a version above its head that renames a report field, a workbook field and a dashboard field. */
function renamingNext(extra: readonly Change[] = []): Contract {
  const head = shippedContract.versions.at(-1) as VersionSpec;
  const changes: Change[] = [
    ...['createReport', 'updateReport'].map((m) => fieldRenamed(request(m), REPORT_FROM, REPORT_TO, `${m}: \`${REPORT_FROM}\` is \`${REPORT_TO}\`.`)),
    fieldRenamed(object('report'), REPORT_FROM, REPORT_TO, `Reports: \`${REPORT_FROM}\` is \`${REPORT_TO}\`.`),
    ...['createWorkbook', 'updateWorkbook', 'moveWorkbook'].map((m) => fieldRenamed(request(m), WORKBOOK_FROM, WORKBOOK_TO, `${m}: \`${WORKBOOK_FROM}\` is \`${WORKBOOK_TO}\`.`)),
    fieldRenamed(object('workbook'), WORKBOOK_FROM, WORKBOOK_TO, `Workbooks: \`${WORKBOOK_FROM}\` is \`${WORKBOOK_TO}\`.`),
    fieldRenamed(object('dashboard'), `${DASH_DATA}.${DASH_FROM}`, `${DASH_DATA}.${DASH_TO}`, `Dashboards: \`${DASH_DATA}.${DASH_FROM}\` is \`${DASH_DATA}.${DASH_TO}\`.`),
    ...extra,
  ];
  return { versions: [...shippedContract.versions, { version: NEXT, methods: nextMethods(head), changes }] };
}

/** POST at the next version's head, as the gateway forwards it. */
async function atNext(url: string, method: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dl-api-version': String(NEXT) }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('a version above the head that renames fields needs no edit to the backend', () => {
  const renamed = ['createReport', 'updateReport', 'createWorkbook', 'updateWorkbook', 'moveWorkbook', 'createDashboard', 'updateDashboard', 'getDashboard', 'getWorkbook'];

  it('takes bodies generated from the renaming version’s request schemas', async () => {
    expect(await unservedMethods(renamingNext(), 5, renamed)).toEqual({});
  }, 120_000);

  it('stores what a client sends under the new names and answers them, never the old ones', async () => {
    const backend = createReferenceBackend({ contract: renamingNext(), seed: DEMO_SEED });
    const url = await backend.listen(0, '127.0.0.1');
    try {
      const workbook = await atNext(url, 'createWorkbook', { collectionId: null, [WORKBOOK_TO]: 'Renamed' });
      expect(workbook.status, JSON.stringify(workbook.body)).toBe(200);
      expect(workbook.body).toMatchObject({ [WORKBOOK_TO]: 'Renamed' });
      expect(workbook.body).not.toHaveProperty(WORKBOOK_FROM);
      const read = await atNext(url, 'getWorkbook', { workbookId: workbook.body.workbookId });
      expect(read.body).toMatchObject({ [WORKBOOK_TO]: 'Renamed' });
      expect(read.body).not.toHaveProperty(WORKBOOK_FROM);
      const report = await atNext(url, 'createReport', { workbookId: workbook.body.workbookId, [REPORT_TO]: 'Weekly', [REPORT_CONTENT]: {} });
      expect(report.status, JSON.stringify(report.body)).toBe(200);
      const updated = await atNext(url, 'updateReport', { reportId: report.body.id, [REPORT_TO]: 'Monthly' });
      expect(updated.body).toMatchObject({ [REPORT_TO]: 'Monthly' });
      expect(updated.body).not.toHaveProperty(REPORT_FROM);
      const tab = { id: 't1', title: 'Main', items: [], layout: [], connections: [], aliases: {} };
      const settings = { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, expandTOC: false };
      const data = { counter: 1, [DASH_TO]: 'pepper', tabs: [tab], settings };
      const dash = await atNext(url, 'createDashboard', { entry: { workbookId: workbook.body.workbookId, name: 'renamed', [DASH_DATA]: data, meta: {} } });
      expect(dash.status, JSON.stringify(dash.body)).toBe(200);
      const got = await atNext(url, 'getDashboard', { dashboardId: dash.body.entry.entryId });
      expect(got.body.entry[DASH_DATA]).toMatchObject({ [DASH_TO]: 'pepper' });
      expect(got.body.entry[DASH_DATA]).not.toHaveProperty(DASH_FROM);
    } finally {
      await backend.close();
    }
  });

  it('a change the backend cannot follow refuses the contract at start, in one line per change', () => {
    const removal = fieldRemoved(object('workbook'), 'meta', 'Workbooks: `meta` is gone.', { downDefault: {} });
    const refusal = (() => {
      try {
        createReferenceBackend({ contract: renamingNext([removal]) });
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(ContractError);
    expect((refusal as ContractError).problems).toEqual([
        `the reference backend follows only renames above version ${NATIVE_VERSION}: version ${NEXT}'s fieldRemoved "Workbooks: \`meta\` is gone." needs it taught (src/reference-backend/)`,
    ]);
  });
});

