// The one place that writes an error response: RFC 9457 problem details plus the DataLens fields.

import type { ServerResponse } from 'node:http';
import { ERROR_CATALOGUE, GatewayError, type ValidationIssue, clientMessage, isIssueList } from '../../core/errors.js';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  /** What DataLens clients read: the real API's fixed sentence where it has one (VALIDATION_ERROR, …), else `detail`. */
  message: string;
  requestId: string | null;
  /** An object; for VALIDATION_ERROR the array of issues, as real DataLens answers it. */
  details: Record<string, unknown> | ValidationIssue[];
}

export const problemType = (code: string) => `urn:dl-version-gateway:problem:${code}`;

export function problemBody(error: GatewayError, requestId: string | null): ProblemBody {
  return {
    type: problemType(error.code),
    title: ERROR_CATALOGUE[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    message: clientMessage(error.code, error.message),
    requestId,
    details: isIssueList(error.details) ? [...error.details] : { ...error.details },
  };
}

/** Writes the problem unless the response has started; then the only honest thing left is to cut it. */
export function sendProblem(res: ServerResponse, error: GatewayError, requestId: string | null): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(problemBody(error, requestId));
  const { details } = error;
  // /rpc takes POST only; a refusal elsewhere (TRACE) names what it allows in its details.
  if (error.code === 'METHOD_NOT_ALLOWED') res.setHeader('allow', !isIssueList(details) && typeof details.allow === 'string' ? details.allow : 'POST');
  // RFC 7694 §3: a 415 for a content coding says which codings the gateway accepts.
  if (!isIssueList(details) && typeof details.acceptEncoding === 'string') res.setHeader('accept-encoding', details.acceptEncoding);
  res.statusCode = error.status;
  res.setHeader('content-type', 'application/problem+json');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.setHeader('cache-control', 'no-store');
  res.end(body);
}

// The one answer for a path that names nothing the gateway serves.

/** 404 for `path` (the caller chooses what of the URL to echo; at most 200 characters of it are). */
export const endpointNotFound = (path: string) =>
  new GatewayError('ENDPOINT_NOT_FOUND', 'no such endpoint; methods are called as POST /rpc/<method>', {
    path: path.slice(0, 200),
    availableIn: [],
  });
