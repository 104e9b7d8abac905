// Releasing a version, step by step, as docs/operations.md ("Releasing a version") orders it, with real servers: the
// reference backend started alone at the new version (the contract's head, NEW), a gateway with the old contract (its
// head NEW - 1) and one with the new, and clients at every version, at `latest`, a preview client and the web UI. Every
// answer is what the client got before the step or gets after it, or an error that names the real cause and the
// operator's remedy. The reversed order (the gateway before the backend) is refused the same way, never blamed on the client.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Contract, MethodSpec } from '../../src/core/contract-model/types.js';
import { buildPlan } from '../../src/core/translate/plan.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const NEW = HEAD;
const OLD = HEAD - 1;
const DAY_MS = 86_400_000;
const WINDOW_DAYS = 365;
/** The new version's release date; each older version came out 30 days before the next. */
const RELEASE = Date.parse('2031-03-01T00:00:00Z');
const releaseOf = (version: number) => RELEASE - (NEW - version) * 30 * DAY_MS;
/** The instants of the rollout: the deployments happen before the release date, the sunset a window after it. */
const DEPLOYED = new Date(RELEASE - 10 * DAY_MS);
const RELEASED = new Date(RELEASE + DAY_MS);
const OLD_SUNSET = RELEASE + WINDOW_DAYS * DAY_MS;
const AFTER_OLD_SUNSET = new Date(OLD_SUNSET + DAY_MS);

/** The contract the gateway ran before this release: the shipped one without its head. */
const OLD_CONTRACT: Contract = { versions: shippedContract.versions.slice(0, -1) };
const calendarOf = (versions: readonly number[], preview: string[] = []) => ({
  supportWindowDays: WINDOW_DAYS,
  versions: versions.map((version) => ({
    version,
    released: new Date(releaseOf(version)).toISOString(),
    ...(version < versions.at(-1)! && { migrationGuide: `https://example.com/migrate-v${version}-to-v${version + 1}` }),
    ...(version === NEW && preview.length > 0 && { preview }),
  })),
});
const PREVIEW_ORG = 'acme-migration';
const config = (versions: readonly number[]) => ({
  lifecycle: calendarOf(versions, [`org:${PREVIEW_ORG}`]),
  legacyKeys: { prefixes: { 'reports/rollout/': 'wb_demo_marketing' } },
});

type Body = Record<string, unknown>;

/** What `version`'s createReport calls the field version 1 calls `name`: the renames declared since, followed. */
function createReportName(version: number, name: string): string {
  let at = name;
  for (const { changes } of shippedContract.versions.slice(1, version)) {
    for (const c of changes) if (c.kind === 'fieldRenamed' && 'request' in c.target && c.target.request === 'createReport' && c.from === at) at = c.to;
  }
  return at;
}

/** The report fields a version's createReport takes: where the report goes (a v1 key or a workbook), and its settings' name. */
function reportBody(version: number, rows: number): Body {
  const shape = (shippedContract.versions[version - 1]!.methods.createReport as MethodSpec).request as unknown as { shape: Record<string, unknown> };
  const content = createReportName(version, 'config');
  if (!(content in shape.shape)) throw new Error(`createReport at ${version} has no settings field ${content}`);
  const where = 'workbookId' in shape.shape ? { workbookId: 'wb_demo_marketing' } : { key: `reports/rollout/r${rows}` };
  return { ...where, [content]: { rows } };
}

/** Every client of the rollout: each version by number, `latest`, and a preview client at the new version. */
interface Client {
  readonly name: string;
  readonly header: string;
  /** The version its body is written for (for `latest`, the version it resolves to when it writes). */
  readonly writes: number;
  readonly headers?: Record<string, string>;
}
const CLIENTS: Client[] = [
  ...VERSIONS.filter((v) => v < NEW).map((v): Client => ({ name: `v${v}`, header: String(v), writes: v })),
  { name: 'latest', header: 'latest', writes: OLD },
  { name: 'preview', header: String(NEW), writes: NEW, headers: { 'x-dl-org-id': PREVIEW_ORG } },
];

let backend: ReferenceBackend;
let backendUrl: string;
const stacks: Stack[] = [];
const gateway = async (contract: Contract, versions: readonly number[], upstreamUrl: string, now: Date) => {
  const stack = await startStack({ upstreamUrl, contract, now, config: config(versions) });
  stacks.push(stack);
  return stack;
};

/**
 * As the web UI saves: on the backend, in the version it speaks, without x-dl-client-api-version. Through the gateway it
 * reaches the backend by pass-through, which versions nothing; the reference backend has no web side, so its /rpc stands in.
 */
const asWebUi = (method: string, body: Body) => rpc(backendUrl, method, body, String(NEW));

/** The gateway's 503 for a backend that speaks another version: names both sides and the remedy. */
function expectMismatch(res: Awaited<ReturnType<typeof rpc>>): void {
  const details = expectProblem(res, 503, 'BACKEND_VERSION_MISMATCH');
  expect(details).toMatchObject({ upstreamStatus: 400, upstreamCode: 'INVALID_API_VERSION_HEADER' });
  expect(res.body.detail).toMatch(/deploy the gateway whose contract matches the backend/);
}

const readyz = async (url: string) => {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  backend = createReferenceBackend({ contract: shippedContract, seed: DEMO_SEED });
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(async () => {
  for (const stack of stacks) await stack.close();
  await backend?.close();
});

describe(`releasing version ${NEW} (the gateway ran version ${OLD} as its newest)`, () => {
  /** Per client: the report it wrote once the new gateway ran, and what it read of it then (before the release). */
  const own = new Map<string, { id: string; before: Body }>();
  /** A report every client could read, then saved by the web UI under the new version. */
  let uiSaved: string;
  let oldGateway: Stack;
  let newGateway: Stack;

  it('1. the backend first: the old gateway answers every client 503 BACKEND_VERSION_MISMATCH, /readyz says why; the web UI works', async () => {
    oldGateway = await gateway(OLD_CONTRACT, VERSIONS.filter((v) => v < NEW), backendUrl, DEPLOYED);
    for (const client of CLIENTS) {
      const res = await rpc(oldGateway.url, 'getReport', { reportId: 'rep_any' }, client.header, client.headers);
      if (client.name === 'preview') {
        // The old gateway has no version NEW: the client's header names a version this gateway does not know.
        expect(expectProblem(res, 400, 'INVALID_API_VERSION_HEADER')).toMatchObject({ reason: 'unknown', latest: OLD });
      } else {
        expectMismatch(res);
      }
    }
    const ready = await readyz(oldGateway.url);
    expect(ready.status).toBe(503);
    expect(String(ready.body.reason)).toMatch(new RegExp(`speaks API version ${NEW} .*contract ends at version ${OLD}$`));
    // The web UI talks to the backend in its own version, and is not affected.
    const created = await asWebUi('createReport', reportBody(NEW, 1));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    uiSaved = created.body.id;
  });

  it('2. the gateway with the new contract, before the release date: every released version as before, the new one only to preview clients', async () => {
    newGateway = await gateway(shippedContract, VERSIONS, backendUrl, DEPLOYED);
    expect(await readyz(newGateway.url)).toMatchObject({ status: 200, body: { backendVersion: NEW } });
    for (const client of CLIENTS) {
      const created = await rpc(newGateway.url, 'createReport', reportBody(client.writes, 100 + client.writes), client.header, client.headers);
      expect(created.status, `${client.name}: ${JSON.stringify(created.body)}`).toBe(200);
      expect(created.headers.get('x-dl-api-version')).toBe(String(client.writes));
      const read = await rpc(newGateway.url, 'getReport', { reportId: created.body.id }, client.header, client.headers);
      expect(read.status, client.name).toBe(200);
      own.set(client.name, { id: created.body.id, before: read.body });
    }
    // Everyone else asking for the new version by number: 400 unreleased, naming the version `latest` still is.
    const refused = await rpc(newGateway.url, 'getReport', { reportId: own.get('latest')!.id }, String(NEW));
    expect(expectProblem(refused, 400, 'INVALID_API_VERSION_HEADER')).toMatchObject({ reason: 'unreleased', received: String(NEW), latest: OLD });
  });

  it('2b. before the release date, objects the web UI saved under the new version: served to every client whose version shows them whole, latest included; else 409 saying the version is not released yet', async () => {
    // The rule for objects saved under a version not yet released (docs/reference/object-versions.md): the lossless
    // rule, whatever objects.olderClients says. Whether a client's version shows this report whole comes from the
    // contract: reports that did not change between the client's version and the new one are served.
    const loaded = loadContract(shippedContract);
    for (const client of CLIENTS) {
      const res = await rpc(newGateway.url, 'getReport', { reportId: uiSaved }, client.header, client.headers);
      const changed = buildPlan(loaded, client.writes, 'getReport')?.kinds?.get('report')?.changedAt.some((v) => v > client.writes && v <= NEW);
      if (client.name === 'preview' || !changed) {
        expect(res.status, client.name).toBe(200);
        continue;
      }
      // A changed kind is served when the round trip down and up is exact (test/object-versions/lossless.test.ts),
      // which a rename is; a report the UI created has no version 1 key, and the key cannot carry its workbook.
      if (client.writes > 1 && res.status === 200) continue;
      const details = expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
      expect(details).toMatchObject({ objectType: 'report', objectId: uiSaved, objectVersion: NEW, minVersion: NEW, minVersionReleased: false });
    }
    // The version before the new one reads it (reports do not change at the new version): `latest` is not locked out.
    expect((await rpc(newGateway.url, 'getReport', { reportId: uiSaved }, 'latest')).status).toBe(200);
  });

  it('3. the release date: latest becomes the new version, the old one is deprecated, every client reads what it read before', async () => {
    newGateway.setNow(RELEASED);
    for (const client of CLIENTS) {
      const { id, before } = own.get(client.name)!;
      const res = await rpc(newGateway.url, 'getReport', { reportId: id }, client.header, client.headers);
      if (client.name === 'latest') {
        // `latest` now means the new version: its answer is the new version's, the one a client at NEW gets.
        expect(res.headers.get('x-dl-api-version')).toBe(String(NEW));
        const atNew = await rpc(newGateway.url, 'getReport', { reportId: id }, String(NEW));
        expect(res.status).toBe(200);
        expect(res.body).toEqual(atNew.body);
        expect(res.headers.get('deprecation')).toBeNull();
        continue;
      }
      expect(res.status, client.name).toBe(200);
      expect(res.body, client.name).toEqual(before);
      if (client.writes < NEW) {
        // Every older version is deprecated from the new release on; the old one since exactly that instant.
        expect(res.headers.get('deprecation'), client.name).toMatch(/^@\d+$/);
        if (client.writes === OLD) {
          expect(res.headers.get('deprecation')).toBe(`@${RELEASE / 1000}`);
          expect(res.headers.get('sunset')).toBe(new Date(OLD_SUNSET).toUTCString());
          expect(res.headers.get('link')).toContain(`migrate-v${OLD}-to-v${NEW}`);
        }
      } else {
        expect(res.headers.get('deprecation')).toBeNull();
      }
    }
    // The web UI's object is no longer newer than latest, and anyone may ask for the new version.
    expect((await rpc(newGateway.url, 'getReport', { reportId: uiSaved }, 'latest')).status).toBe(200);
    expect((await rpc(newGateway.url, 'getReport', { reportId: uiSaved }, String(NEW))).status).toBe(200);
  });

  it('4. the old version\'s sunset: it answers 410 naming the sunset, the guide and the version to use; latest and the new one go on', async () => {
    newGateway.setNow(AFTER_OLD_SUNSET);
    for (const client of CLIENTS) {
      const { id } = own.get(client.name)!;
      const res = await rpc(newGateway.url, 'getReport', { reportId: id }, client.header, client.headers);
      if (client.writes < NEW && client.name !== 'latest') {
        const details = expectProblem(res, 410, 'API_VERSION_SUNSET');
        expect(details).toMatchObject({ version: client.writes, latest: NEW, migrationGuide: `https://example.com/migrate-v${client.writes}-to-v${client.writes + 1}` });
      } else {
        expect(res.status, client.name).toBe(200);
        expect(res.headers.get('x-dl-api-version')).toBe(String(NEW));
      }
    }
  });
});

describe('the reversed order: the gateway with the new contract before the backend', () => {
  it('answers every client 503 BACKEND_VERSION_MISMATCH (never its header refused) and /readyz says why', async () => {
    const oldBackend = createReferenceBackend({ contract: OLD_CONTRACT, seed: DEMO_SEED });
    const oldUrl = await oldBackend.listen(0, '127.0.0.1');
    try {
      const early = await gateway(shippedContract, VERSIONS, oldUrl, DEPLOYED);
      for (const client of CLIENTS) expectMismatch(await rpc(early.url, 'getReport', { reportId: 'rep_any' }, client.header, client.headers));
      const ready = await readyz(early.url);
      expect(ready.status).toBe(503);
      expect(String(ready.body.reason)).toMatch(new RegExp(`speaks API version ${OLD} .*contract ends at version ${NEW}$`));
    } finally {
      await oldBackend.close();
    }
  });
});
