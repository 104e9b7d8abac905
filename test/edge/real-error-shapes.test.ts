// The gateway's own refusals beside real DataLens's recorded answers (version 1, read at run time from
// ../shared/reference, never copied here): a validation error has the same status, code, message and details; a
// version-header spelling gets the same status (and, refused, the same code and message).

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { send } from '../helpers/http.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const FILE = fileURLToPath(new URL('../../../shared/reference/datalens-oss-v1-recordings.json', import.meta.url));
const present = existsSync(FILE);
if (!present) console.warn(`test/edge/real-error-shapes.test.ts skipped: ${FILE} (the real DataLens recordings, kept outside the repository) is absent`);

interface Call {
  method: string;
  headers: Record<string, string>;
  request: unknown;
  status: number;
  response: any;
  note?: string;
}
const calls: Call[] = present ? (JSON.parse(readFileSync(FILE, 'utf8')) as { calls: Call[] }).calls : [];

// The real controller's own validation answers details as an array; an object there is the storage service's check,
// which the gateway passes on as its backend answers it (docs/reference/errors.md, "Answers from the backend").
const validations = calls.filter((c) => c.response?.code === 'VALIDATION_ERROR' && Array.isArray(c.response.details));
const headerCases = calls.filter((c) => c.headers['x-dl-api-version'] !== '1');

/** Recorded answers the gateway gives differently on purpose, by the recording's note, each with the reason. */
const DIFFERENT: Record<string, string> = {
  'validation: no body':
    'an empty body is 400 INVALID_JSON here (docs/reference/errors.md) where the real API reads it as {}: same status, another code',
};

describe.skipIf(!present)('refusals as real DataLens recorded them (../shared/reference/datalens-oss-v1-recordings.json)', () => {
  let stack: Stack;
  let collectionId: string;
  beforeAll(async () => {
    stack = await startStack();
    const made = await rpc(stack.url, 'createCollection', { title: 'Recorded', description: '', parentId: null }, '1');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    collectionId = made.body.collectionId;
  });
  afterAll(() => stack?.close());

  /** The recorded call through the gateway, at its recorded header, without a body where it had none. */
  const replay = (c: Call) =>
    send(stack.url, {
      path: `/rpc/${c.method}`,
      headers: { 'content-type': 'application/json', ...c.headers },
      ...(c.request !== null && { body: JSON.stringify(c.request).replaceAll('"<collectionId>"', JSON.stringify(collectionId)) }),
    });

  it('has the recorded cases this suite compares (validation errors, header spellings)', () => {
    expect(validations.length).toBeGreaterThanOrEqual(5);
    expect(headerCases.map((c) => c.headers['x-dl-api-version'] ?? null)).toEqual(expect.arrayContaining([null, '0', '1.0', '01', 'LATEST', '', 'latest']));
  });

  const validationCases = validations.map((c) => {
    const note = c.note ?? c.method;
    return [DIFFERENT[note] ? `${note}: the same status, another code on purpose` : `${note}: the same status, code, message and details`, note, c] as const;
  });
  it.each(validationCases)('VALIDATION_ERROR, %s', async (_title, note, c) => {
    const res = await replay(c);
    if (DIFFERENT[note]) {
      expect(res.status).toBe(c.status);
      expect(res.body.code, DIFFERENT[note]).not.toBe(c.response.code);
      return;
    }
    expect(res.status).toBe(c.status);
    expect(res.body).toMatchObject({ code: c.response.code, message: c.response.message });
    expect(res.body.details).toEqual(c.response.details);
  });

  const headerTitle = (value: string | undefined) =>
    value !== undefined && VERSIONS.map(String).includes(value) && value !== '1'
      ? `${value}: served here, where version ${value} exists (the real controller had only 1)`
      : `${JSON.stringify(value ?? null)}: the same status, and refused, the same code and message`;
  it.each(headerCases.map((c) => [headerTitle(c.headers['x-dl-api-version']), c] as const))('x-dl-api-version %s', async (_title, c) => {
    const value = c.headers['x-dl-api-version'];
    const res = await replay(c);
    // The real controller served only version 1; the versions served here are answered as such.
    if (value !== undefined && VERSIONS.map(String).includes(value)) {
      expect(res.body?.code).not.toBe('INVALID_API_VERSION_HEADER');
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(c.status);
    if (c.status === 200) expect(res.headers['x-dl-api-version']).toBe(value === 'latest' ? String(HEAD) : '1');
    else expect(res.body).toMatchObject({ code: c.response.code, message: c.response.message });
  });
});
