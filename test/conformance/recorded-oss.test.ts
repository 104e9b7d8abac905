// Open-source DataLens behind the gateway (upstream.kind datalens-oss), tested against the real system's words: a
// loopback server answers the internal routes with the answers recorded on a real build
// (../shared/reference/datalens-oss-internal-recordings.json, read at run time, never copied here). Every recorded
// public call, sent to the gateway at version 1, must get the recorded public answer (status and body) and send the
// recorded internal request; the same calls at 2, 3 and `latest` must get answers that parse with those versions'
// schemas. Deliberate differences are listed, each with its reason, in recorded-oss/differences.ts.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { bound, type RecordedEntry, type RecordedOss, startRecordedOss } from '../helpers/recorded-oss.js';
import { rpc, startStack, type Stack } from '../helpers/stack.js';
import { DELIBERATE, SCHEMA_GAPS } from './recorded-oss/differences.js';
import { jsonDifferences } from './recorded-oss/json-diff.js';

const REFERENCE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference');
const RECORDINGS = resolve(REFERENCE_DIR, 'datalens-oss-internal-recordings.json');
const present = existsSync(RECORDINGS);
if (!present) console.warn(`recorded-oss: skipped, ${RECORDINGS} is absent (the real recordings live outside the repository)`);
const entries: RecordedEntry[] = present ? (JSON.parse(readFileSync(RECORDINGS, 'utf8')) as { entries: RecordedEntry[] }).entries : [];
const contract = loadContract(shippedContract);

/** Calls whose version-1 body a later version's schema takes but that are not that version's calls: asked at 1. */
const NOT_ASKED_ABOVE_1 = new Map([
  ['updateDashboard', 'a version-1 dashboard body (schemeVersion 8) is no version-3 body; asked at 3 the gateway refuses to drop schemeVersion going down (422)'],
]);

interface Run {
  oss: RecordedOss;
  stack: Stack;
}

async function startRun(): Promise<Run> {
  const oss = await startRecordedOss(entries);
  const stack = await startStack({ upstreamUrl: oss.url, config: { upstream: { url: oss.url, kind: 'datalens-oss' } } });
  return { oss, stack };
}

/** The public controller refused the call itself (its own validation, an unknown method, the version header): nothing went inside. */
function refusedByController(entry: RecordedEntry): boolean {
  const body = entry.publicAnswer.body as { code?: unknown; details?: unknown } | null;
  if (body?.code === 'ENDPOINT_NOT_FOUND' || body?.code === 'INVALID_API_VERSION_HEADER') return true;
  return body?.code === 'VALIDATION_ERROR' && Array.isArray(body.details);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What went inside, against the recording: the recorded internal request sent (or nothing, when the controller refused). */
function internalDifferences(run: Run, entry: RecordedEntry): string[] {
  const check = (s: { method: string; path: string }) => s.method === 'POST' && s.path === '/gateway/root/us/getEntry';
  const sent = run.oss.seen.filter((s) => !check(s));
  const wanted = entry.internal && bound(entry.internal);
  if (!wanted) return [];
  if (refusedByController(entry)) return sent.length ? [`reached the backend: ${sent.map((s) => `${s.method} ${s.path}`).join(', ')}`] : [];
  const same = sent.find((s) => s.method === wanted.method && s.path === wanted.path);
  if (!same) return [`internal request not sent: ${wanted.method} ${wanted.path} (sent: ${sent.map((s) => `${s.method} ${s.path}`).join(', ') || 'nothing'})`];
  const out = sameJson(same.body, wanted.body) ? [] : jsonDifferences(wanted.body, same.body, 'internal $').map((d) => d.replace('(public)', '(recorded)'));
  return [...out, ...sent.filter((s) => s !== same).map((s) => `another internal request: ${s.method} ${s.path}`)];
}

/** The gateway's answer at version 1 against the recorded public answer: status, then the body (its own problem answers by code and message). */
async function v1Differences(run: Run, entry: RecordedEntry): Promise<string[]> {
  run.oss.expect(entry);
  const header = entry.public.headers['x-dl-api-version'] ?? null;
  const res = await rpc(run.stack.url, entry.publicMethod, bound(entry.public.body), header);
  const requestId = res.headers.get('x-request-id') ?? '';
  const expected = bound(entry.publicAnswer.body, requestId) as Record<string, unknown>;
  const out = internalDifferences(run, entry);
  if (res.status !== entry.publicAnswer.status) out.push(`status ${entry.publicAnswer.status} (public) vs ${res.status} (ours)`);
  if (res.headers.get('content-type')?.startsWith('application/problem+json')) {
    for (const key of ['code', 'message']) if (expected[key] !== res.body[key]) out.push(`$.${key}: ${JSON.stringify(expected[key])} (public) vs ${JSON.stringify(res.body[key])} (ours)`);
  } else out.push(...jsonDifferences(expected, res.body));
  return out;
}

describe.skipIf(!present)('open-source DataLens behind the gateway, from its recorded internal routes', () => {
  it('lists deliberate differences only for recorded calls, each with a reason', () => {
    for (const d of DELIBERATE) {
      expect(entries.some((e) => e.label === d.label), d.label).toBe(true);
      expect(d.reason.length).toBeGreaterThan(20);
    }
    for (const g of SCHEMA_GAPS) expect(entries.some((e) => e.label === g.label), g.label).toBe(true);
  });

  describe.sequential('at version 1: the recorded public answer, from the recorded internal request', () => {
    let run: Run;
    beforeAll(async () => {
      run = await startRun();
    });
    afterAll(async () => {
      await run?.stack.close();
      await run?.oss.close();
    });
    entries.forEach((entry, i) => {
      it(`${String(i).padStart(2, '0')} ${entry.label}`, async () => {
        const deliberate = DELIBERATE.find((d) => d.label === entry.label)?.differences ?? [];
        expect(await v1Differences(run, entry)).toEqual([...deliberate]);
      });
    });
  });

  // The versions above 1: a call whose version-1 body the version's own request schema takes is asked at that
  // version (requests go down to 1, answers come up); the rest run at 1 so that the same objects exist later.
  for (const asked of [...VERSIONS.filter((v) => v > 1).map(String), 'latest']) {
    const version = asked === 'latest' ? HEAD : Number(asked);
    describe.sequential(`at ${asked}: the answers parse with version ${version}'s schemas`, () => {
      let run: Run;
      beforeAll(async () => {
        run = await startRun();
      });
      afterAll(async () => {
        await run?.stack.close();
        await run?.oss.close();
      });
      entries.forEach((entry, i) => {
        const spec = methodAt(contract, version, entry.publicMethod);
        const body = bound(entry.public.body);
        const takes = spec?.request.safeParse(body ?? {}).success ?? false;
        const name = `${String(i).padStart(2, '0')} ${entry.label}`;
        const status = [entry.answer?.status ?? 200, entry.publicAnswer.status].find((s) => s !== 200) ?? 200;
        const why = !spec ? `version ${version} has no ${entry.publicMethod}` : !takes ? `version ${version} takes another body` : status !== 200 ? `a recorded ${status}` : NOT_ASKED_ABOVE_1.get(entry.label);
        if (why !== undefined) {
          it(`${name} [at 1: ${why}]`, async () => {
            run.oss.expect(entry);
            await rpc(run.stack.url, entry.publicMethod, body, '1');
          });
          return;
        }
        it(name, async () => {
          run.oss.expect(entry);
          const res = await rpc(run.stack.url, entry.publicMethod, body, asked);
          expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
          const parsed = spec!.response.safeParse(res.body);
          const paths = [...new Set(parsed.error?.issues.map((issue) => issue.path.join('.')) ?? [])];
          const gap = SCHEMA_GAPS.find((g) => g.label === entry.label && (g.versions ?? [version]).includes(version));
          expect(paths, JSON.stringify(parsed.error?.issues.slice(0, 3))).toEqual(gap?.paths ?? []);
        });
      });
    });
  }
});
