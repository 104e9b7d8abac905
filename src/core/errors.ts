// The error catalogue (docs/reference/errors.md): one entry per stable code, and the one error type that carries it.
// No HTTP objects here: the edge renders a GatewayError as application/problem+json.

export const ERROR_CATALOGUE = {
  // `message`: the fixed sentence real DataLens answers with this code (its public-API controller, version 1);
  // the problem's `detail` still says what exactly was wrong.
  INVALID_API_VERSION_HEADER: { status: 400, title: 'Invalid API version header', message: 'Invalid or empty x-dl-api-version header value' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Endpoint not found' },
  VALIDATION_ERROR: { status: 400, title: 'Validation error', message: 'Validation error' },
  API_VERSION_SUNSET: { status: 410, title: 'API version sunset' },
  UNSUPPORTED_OBJECT_VERSION: { status: 409, title: 'Unsupported object version' },
  VERSION_TRANSLATION_FAILED: { status: 422, title: 'Version translation failed' },
  // The method exists at the client's version but the backend (upstream.apiVersion, below it) cannot serve it.
  METHOD_NOT_SERVED_BY_BACKEND: { status: 404, title: 'Method not served by this backend' },
  // The backend's kind has no route for the method (upstream.kind datalens-oss: no internal route, or a service it lacks).
  NO_BACKEND_ROUTE: { status: 404, title: 'No route to this method on this backend' },
  INVALID_JSON: { status: 400, title: 'Invalid JSON' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  UPSTREAM_UNAVAILABLE: { status: 502, title: 'Upstream unavailable' },
  UPSTREAM_TIMEOUT: { status: 504, title: 'Upstream timeout' },
  // The backend refused the version the gateway forwards (its contract's head): gateway and backend disagree.
  BACKEND_VERSION_MISMATCH: { status: 503, title: 'Backend speaks another API version' },
  // The backend refused with a status but without a JSON body: the gateway keeps the status, gives the body.
  UPSTREAM_ERROR: { status: 502, title: 'Upstream error' },
  // Refusals of requests that never reached the gateway's handler (Node's HTTP parser and server timers).
  MALFORMED_REQUEST: { status: 400, title: 'Malformed HTTP request' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request timeout' },
  EXPECTATION_FAILED: { status: 417, title: 'Expectation failed' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request header fields too large' },
  // A defect of the gateway itself, never a client's fault.
  INTERNAL_ERROR: { status: 500, title: 'Internal gateway error' },
} as const satisfies Record<string, { status: number; title: string; message?: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The `message` a DataLens client reads for this code: the real API's fixed sentence, or else the error's own. */
export function clientMessage(code: ErrorCode, own: string): string {
  const entry = ERROR_CATALOGUE[code];
  return 'message' in entry ? entry.message : own;
}

/**
 * One reason a body was refused, as zod 4 reports it and real DataLens answers it in a VALIDATION_ERROR's
 * `details`: `code`, `path` (the keys and indexes from the body's root, `[]` for the root itself), `message`,
 * and the code's own fields (`expected`, `keys`, `minimum`, …).
 */
export interface ValidationIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly [field: string]: unknown;
}

/** A VALIDATION_ERROR's details are its issues (an array, as real DataLens answers); every other code's, an object. */
export type ErrorDetails = Readonly<Record<string, unknown>> | readonly ValidationIssue[];

/** Every code but VALIDATION_ERROR: the codes whose details are an object. */
export type OtherCode = Exclude<ErrorCode, 'VALIDATION_ERROR'>;

export const isIssueList = (details: ErrorDetails): details is readonly ValidationIssue[] => Array.isArray(details);

/** A refusal the gateway means to give: a catalogue code, a human sentence, typed details. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** The status when it is not the catalogue's: UPSTREAM_ERROR keeps the backend's. */
  private readonly statusOverride: number | undefined;

  // The types keep the two shapes apart: issues for VALIDATION_ERROR, an object for every other code.
  constructor(code: 'VALIDATION_ERROR', detail: string, issues?: readonly ValidationIssue[]);
  constructor(code: OtherCode, detail: string, details?: Readonly<Record<string, unknown>>, status?: number);
  constructor(code: ErrorCode, detail: string, details?: ErrorDetails, status?: number) {
    super(detail);
    this.name = 'GatewayError';
    this.code = code;
    this.details = details ?? (code === 'VALIDATION_ERROR' ? [] : {});
    this.statusOverride = status;
  }

  get status(): number {
    return this.statusOverride ?? ERROR_CATALOGUE[this.code].status;
  }
}

export const isGatewayError = (e: unknown): e is GatewayError => e instanceof GatewayError;

/**
 * A non-2xx answer to a backend call made by a migration. Migrations may turn it into a GatewayError;
 * otherwise the edge passes the backend's status and body through, as it does for forwarded calls.
 */
export class BackendCallError extends Error {
  constructor(
    readonly status: number,
    /** The parsed JSON body, or undefined when the body is empty or not JSON. */
    readonly body: unknown,
    /** The answer's headers (lower-case names) and raw bytes, for passing the refusal on unchanged. */
    readonly headers: Readonly<Record<string, string | string[] | undefined>> = {},
    readonly raw: Uint8Array = new Uint8Array(0),
  ) {
    super(`backend answered ${status}`);
    this.name = 'BackendCallError';
  }
}
