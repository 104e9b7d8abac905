// x-dl-api-version at the edge: which values are refused (and why), what `latest` means, what is echoed.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { expectProblem, send } from '../helpers/http.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

/** The head as a header value; the first number past it names no version. */
const HEAD_HEADER = String(HEAD);
const UNKNOWN = String(HEAD + 1);

describe('the x-dl-api-version header', () => {
  let stack: Stack;
  let reportId: string;
  const backendCount = () => stack.backend!.requests.length;

  beforeAll(async () => {
    stack = await startStack();
    // Created at version 1, so both versions can read it.
    const created = await rpc(stack.url, 'createReport', { key: 'reports/sales/weekly', config: { k: 1 } }, '1');
    expect(created.status).toBe(200);
    reportId = created.body.id;
  });
  afterAll(() => stack.close());

  /** Sends getReport with the given header value(s) through node:http (so nothing is normalised by fetch). */
  const ask = (value: string | string[] | undefined) =>
    send(stack.url, {
      path: '/rpc/getReport',
      headers: {
        'content-type': 'application/json',
        ...(value !== undefined && { 'x-dl-api-version': value }),
      },
      body: JSON.stringify({ reportId }),
    });

  /** A refusal: 400 INVALID_API_VERSION_HEADER with the reason and the calendar, and nothing forwarded. */
  async function expectRefused(value: string | string[] | undefined, reason: string) {
    const before = backendCount();
    const res = await ask(value);
    const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
    expect(details.reason).toBe(reason);
    expect(details.supported).toEqual(VERSIONS);
    expect(details.latest).toBe(HEAD);
    expect(backendCount()).toBe(before);
    return details;
  }

  it('is refused as missing when the client does not send it, and nothing is forwarded', async () => {
    const before = backendCount();
    const res = await rpc(stack.url, 'getReport', { reportId }, null);
    const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
    expect(details).toMatchObject({ reason: 'missing', supported: VERSIONS, latest: HEAD });
    expect(details).not.toHaveProperty('received');
    expect(backendCount()).toBe(before);
  });

  // What real DataLens refuses (recorded: `0`, `LATEST`) and the Number() spellings refused on purpose (errors.md).
  it.each(['+1', '0x1', 'LATEST', 'Latest', '-1', '1e0', '0', '0.0', '1.5', '2abc', 'v2', 'one'])(
    'is refused as malformed when it is %j, naming the value received',
    async (value) => {
      const details = await expectRefused(value, 'malformed');
      expect(details.received).toBe(value);
    },
  );

  // Real DataLens reads the header as a number: its recorded answers serve `1.0` and `01` as version 1.
  it.each([
    ['1.0', '1'],
    ['01', '1'],
    ['001.00', '1'],
    ['2.0', '2'],
    ['02', '2'],
  ])('serves %j as version %s: the answer and the forwarded call say the one number', async (value, version) => {
    const before = backendCount();
    const res = await ask(value);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['x-dl-api-version']).toBe(version);
    expect(res.body).toMatchObject({ id: reportId });
    const seen = stack.backend!.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['x-dl-client-api-version']).toBe(version);
    expect(seen[0]!.headers['x-dl-api-version']).toBe(HEAD_HEADER);
  });

  it('counts `1.0` and `01` under the one metrics label `1`, never under the spelling', async () => {
    const requests = async () => (await stack.metrics.registry.getSingleMetric('dlgw_requests_total')!.get()).values;
    const servedAt1 = async () =>
      (await requests()).filter((v) => v.labels.version === '1' && v.labels.method === 'getReport' && v.labels.status === '200').reduce((n, v) => n + v.value, 0);
    const before = await servedAt1();
    expect((await ask('1.0')).status).toBe(200);
    expect((await ask('01')).status).toBe(200);
    expect(await servedAt1()).toBe(before + 2);
    expect((await requests()).map((v) => String(v.labels.version))).not.toContainEqual(expect.stringMatching(/^0|\./));
  });

  it('names no version with a spelling of the head + 1 (`0N.0`), and echoes it as sent', async () => {
    const value = `0${UNKNOWN}.0`;
    const details = await expectRefused(value, 'unknown');
    expect(details.received).toBe(value);
  });

  // An empty (or blank: HTTP strips the surrounding whitespace) value says nothing: the shipped parser
  // treats it like an absent header, which gives the clearer message ("the header is required").
  it.each([' ', ''])('is refused as missing when its value is blank (%j)', async (value) => {
    await expectRefused(value, 'missing');
  });

  it('is refused as multiple when one header line carries two values ("1, 2")', async () => {
    const before = backendCount();
    const res = await rpc(stack.url, 'getReport', { reportId }, '1, 2');
    const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
    expect(details).toMatchObject({ reason: 'multiple', supported: VERSIONS, latest: HEAD });
    expect(backendCount()).toBe(before);
  });

  it('is refused as multiple when it is sent on two header lines, even with valid values', async () => {
    await expectRefused(['1', '2'], 'multiple');
  });

  it('is refused as multiple when it is sent twice with the same value', async () => {
    await expectRefused(['2', '2'], 'multiple');
  });

  it('is refused as unknown when it names a version the gateway does not have (the head + 1)', async () => {
    const details = await expectRefused(UNKNOWN, 'unknown');
    expect(details.received).toBe(UNKNOWN);
  });

  // A well-formed integer that names no version is `unknown`, however long (earlier drafts of
  // parse-header.ts capped the digits and called 99999999999 `malformed`).
  it('is refused as unknown when it is a well-formed but huge integer (99999999999)', async () => {
    const details = await expectRefused('99999999999', 'unknown');
    expect(details.received).toBe('99999999999');
  });

  it('is refused as unknown for a 100-digit integer, echoing at most 64 characters of it', async () => {
    const value = '9'.repeat(100);
    const details = await expectRefused(value, 'unknown');
    expect(details.received).toBe('9'.repeat(64));
  });

  it('resolves `latest` to the head and echoes the integer, not the word', async () => {
    const res = await rpc(stack.url, 'getReport', { reportId }, 'latest');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-dl-api-version')).toBe(HEAD_HEADER);
    expect(res.body).toMatchObject({ id: reportId, workbookId: 'wb_demo_sales' });
    const seen = stack.backend!.requests.at(-1)!;
    expect(seen.headers['x-dl-client-api-version']).toBe(HEAD_HEADER);
  });

  it.each([
    ['1', { key: 'reports/sales/weekly' }],
    ['2', { workbookId: 'wb_demo_sales' }],
  ] as const)('echoes an integer version %s on the response and serves that version\'s shape', async (version, shape) => {
    const res = await rpc(stack.url, 'getReport', { reportId }, version);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-dl-api-version')).toBe(version);
    expect(res.body).toMatchObject({ id: reportId, ...shape });
  });

  it('echoes the resolved version on an error the backend answered too', async () => {
    const res = await rpc(stack.url, 'getReport', { reportId: 'rep_does_not_exist' }, 'latest');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-dl-api-version')).toBe(HEAD_HEADER);
  });

  it('serves every decimal spelling of a version and `latest`, and refuses (forwarding nothing) every other value', async () => {
    const alphabet = fc.constantFrom(...'0123456789+-.,xeEabLATESTlatest '.split(''));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: alphabet, minLength: 1, maxLength: 7 }), async (raw) => {
        const value = raw.trim();
        const before = backendCount();
        const res = await ask(raw);
        // The number a decimal spelling names (leading zeros, a fraction of zeros), as the test reads it on its own.
        const whole = /^[0-9]+(\.0*)?$/.test(value) ? String(Number(value)) : undefined;
        if (value === 'latest' || (whole !== undefined && VERSIONS.map(String).includes(whole))) {
          expect(res.status).toBe(200);
          expect(res.headers['x-dl-api-version']).toBe(value === 'latest' ? HEAD_HEADER : whole);
          return;
        }
        const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
        const expected =
          value === '' ? 'missing' : value.includes(',') ? 'multiple' : whole !== undefined && whole !== '0' ? 'unknown' : 'malformed';
        expect(details.reason).toBe(expected);
        expect(backendCount()).toBe(before);
      }),
      { numRuns: 80 },
    );
  });
});
