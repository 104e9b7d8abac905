// The error catalogue and the error types the core throws.
import { describe, expect, it } from 'vitest';
import { BackendCallError, ERROR_CATALOGUE, GatewayError, clientMessage, isGatewayError, isIssueList } from '../../src/core/errors.js';
import { isJsonMediaType } from '../../src/core/media-type.js';
import { upstreamFailed, upstreamTimeout, upstreamUnavailable } from '../../src/core/upstream-errors.js';
import { versionNumberIn } from '../../src/core/version/number.js';

describe('the error catalogue', () => {
  it.each(Object.entries(ERROR_CATALOGUE))('%s has an error status and a title of its own', (code, entry) => {
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThan(600);
    expect(entry.title.trim().length).toBeGreaterThan(3);
    expect(entry.title).not.toBe(code);
  });

  it('gives each code a different title', () => {
    const titles = Object.values(ERROR_CATALOGUE).map((e) => e.title);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('clientMessage', () => {
  // The sentences real DataLens answers (its recorded version-1 answers).
  it.each([
    ['VALIDATION_ERROR', 'Validation error'],
    ['INVALID_API_VERSION_HEADER', 'Invalid or empty x-dl-api-version header value'],
  ] as const)('is the real fixed sentence for %s', (code, sentence) => {
    expect(clientMessage(code, 'what exactly was wrong')).toBe(sentence);
  });

  it('is the error\'s own sentence for a code real DataLens words per case', () => {
    expect(clientMessage('ENDPOINT_NOT_FOUND', 'method x does not exist in API version 2')).toBe('method x does not exist in API version 2');
  });
});

describe('GatewayError', () => {
  it('carries its code, sentence and details, and the catalogue status', () => {
    const e = new GatewayError('ENDPOINT_NOT_FOUND', 'no such method: x', { method: 'x' });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('GatewayError');
    expect(e.code).toBe('ENDPOINT_NOT_FOUND');
    expect(e.message).toBe('no such method: x');
    expect(e.details).toEqual({ method: 'x' });
    expect(e.status).toBe(404);
    expect(isGatewayError(e)).toBe(true);
  });

  it('defaults a VALIDATION_ERROR to no issues, an array, and tells the two details shapes apart', () => {
    const e = new GatewayError('VALIDATION_ERROR', 'refused');
    expect(e.details).toStrictEqual([]);
    expect(isIssueList(e.details)).toBe(true);
    expect(isIssueList(new GatewayError('UPSTREAM_ERROR', 'x').details)).toBe(false);
  });

  it('defaults to empty details and keeps a status given for it', () => {
    const e = new GatewayError('UPSTREAM_ERROR', 'backend refused');
    expect(e.details).toStrictEqual({});
    expect(e.status).toBe(502);
    expect(new GatewayError('UPSTREAM_ERROR', 'backend refused', {}, 503).status).toBe(503);
  });

  it('is told apart from other errors', () => {
    expect(isGatewayError(new Error('x'))).toBe(false);
    expect(isGatewayError({ code: 'ENDPOINT_NOT_FOUND' })).toBe(false);
  });
});

describe('BackendCallError', () => {
  it('carries the backend status and body, with empty headers and bytes by default', () => {
    const e = new BackendCallError(404, { code: 'NOT_FOUND' });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('BackendCallError');
    expect(e.message).toBe('backend answered 404');
    expect(e.status).toBe(404);
    expect(e.body).toEqual({ code: 'NOT_FOUND' });
    expect(e.headers).toEqual({});
    expect(e.raw).toEqual(new Uint8Array(0));
  });
});

describe('isJsonMediaType', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/problem+json', 'application/vnd.api+json;x=1', ' application/json ', 'application/json ;charset=utf-8'])(
    'accepts %j',
    (value) => {
      expect(isJsonMediaType(value)).toBe(true);
    },
  );

  it.each([undefined, '', 'text/json', 'application/jsonx', 'application/json-patch', 'xapplication/json', 'text/plain; application/json', 'application/+json'])(
    'refuses %j',
    (value) => {
      expect(isJsonMediaType(value)).toBe(false);
    },
  );
});

describe('the upstream errors', () => {
  it('say why the backend failed, in the words of socket errors, keeping undici\'s own code', () => {
    expect(upstreamFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })).details).toEqual({ reason: 'ECONNRESET', undiciCode: 'UND_ERR_SOCKET' });
    expect(upstreamFailed(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).details).toEqual({ reason: 'ECONNREFUSED' });
    expect(upstreamFailed(new Error('no code')).details).toEqual({ reason: 'no code' });
    const e = upstreamUnavailable('redirect 302', { upstreamStatus: 302 });
    expect([e.code, e.status, e.details]).toEqual(['UPSTREAM_UNAVAILABLE', 502, { reason: 'redirect 302', upstreamStatus: 302 }]);
    expect(e.message).toBe('the backend could not be reached or answered with a broken response');
  });

  it('say how long the backend had', () => {
    const e = upstreamTimeout(1500);
    expect([e.code, e.status, e.message, e.details]).toEqual(['UPSTREAM_TIMEOUT', 504, 'the backend did not answer within 1500 ms', { timeoutMs: 1500 }]);
  });
});

describe('versionNumberIn', () => {
  it.each([['1', 1], ['42', 42], ['999999999', 999999999]])('reads %j as %d', (text, n) => {
    expect(versionNumberIn(text)).toBe(n);
  });

  it.each(['', '0', '01', '+1', '1.0', '0x1', ' 1', '1e3', 'latest', '1234567890'])('reads no version in %j', (text) => {
    expect(versionNumberIn(text)).toBeUndefined();
  });
});
