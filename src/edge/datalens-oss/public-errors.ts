// The error answers of open-source DataLens's public controller, made from what its internal routes answer.
// The rules follow datalens-ui f581b7c src/server/controllers/public-api/utils.ts (`prepareError`) as seen from
// outside: the internal route sends the gateway library's error without its `debug` part, so the original error's
// class is read from what is left (status, code, message), as the recordings of both routes show.

import { isJsonObject } from '../../core/translate/paths.js';

/** An answer as the public controller would send it. */
export interface PublicAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Messages of the ServerError 404 the dashboard and chart actions throw, which the internal route reports as 500. */
const NOT_FOUND_MESSAGES = new Set(['No entry found', 'Entry not found']);

/** A JavaScript TypeError, ReferenceError or SyntaxError's message: the public controller hides those as 500. */
const PROGRAM_ERROR = /is not a function|is not iterable|Cannot read propert|Cannot set propert|is not defined|Unexpected token|Unexpected end of JSON/;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The public error body, with its keys in the controller's order; undefined ones are left out, as JSON does. */
const errorBody = (status: number, requestId: string, message: string, code?: string, details?: unknown) => ({
  status,
  ...(code !== undefined && { code }),
  message,
  requestId,
  ...(details !== undefined && { details }),
});

/**
 * The public answer for an internal `/gateway/root/<service>/<action>` error: a 4xx keeps its code, message and
 * details; a 500 keeps its message only, except the dashboard and chart actions' "not found" (404) and program errors
 * ("Internal server error"). Undefined when the answer is not the gateway library's error (no such route).
 */
export function publicActionError(status: number, body: unknown, requestId: string): PublicAnswer | undefined {
  if (!isJsonObject(body) || text(body.message) === undefined) return undefined;
  const message = body.message as string;
  const id = text(body.requestId) ?? requestId;
  if (status !== 500) return { status, body: errorBody(status, id, message, text(body.code), body.details) };
  if (NOT_FOUND_MESSAGES.has(message) && body.code === 'GATEWAY_REQUEST_ERROR' && body.details === undefined) {
    return { status: 404, body: errorBody(404, id, message) };
  }
  if (PROGRAM_ERROR.test(message)) return { status: 500, body: errorBody(500, id, 'Internal server error') };
  return { status: 500, body: errorBody(500, id, message) };
}

/**
 * The public answer for an error of the charts engine's `GET /api/charts/v1/charts/:id`, which sends United Storage's
 * error body as it came (`{code, message, details}`) where the public controller would send it through prepareError.
 */
export function publicChartReadError(status: number, body: unknown, requestId: string): PublicAnswer {
  if (status === 500 || !isJsonObject(body)) return { status: 500, body: errorBody(500, requestId, 'Internal server error') };
  const message = text(body.message) ?? 'Failed to get chart';
  return { status, body: errorBody(status, text(body.requestId) ?? requestId, message, text(body.code), body.details) };
}

/** The public controller's 404 for an entry of another scope or type than the method's (the chart actions' check). */
export const notThisKind = (message: 'No entry found' | 'Entry not found', requestId: string): PublicAnswer => ({
  status: 404,
  body: errorBody(404, requestId, message),
});
