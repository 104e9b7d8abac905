// The reference backend's error codes and the one error type its handlers throw; rendered by server.ts.

export const BACKEND_ERRORS = {
  INVALID_API_VERSION_HEADER: { status: 400, title: 'Invalid API version header' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Endpoint not found' },
  VALIDATION_ERROR: { status: 400, title: 'Validation error' },
  INVALID_JSON: { status: 400, title: 'Invalid JSON' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  UNSUPPORTED_OBJECT_VERSION: { status: 409, title: 'Unsupported object version' },
  VERSION_TRANSLATION_FAILED: { status: 422, title: 'Version translation failed' },
  OPERATION_NOT_FINISHED: { status: 409, title: 'Operation not finished' },
  ENTRY_LOCKED: { status: 423, title: 'Entry locked' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type BackendErrorCode = keyof typeof BACKEND_ERRORS;

export class BackendError extends Error {
  readonly code: BackendErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: BackendErrorCode, detail: string, details: Readonly<Record<string, unknown>> = {}) {
    super(detail);
    this.name = 'BackendError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return BACKEND_ERRORS[this.code].status;
  }
}

/** The problem-details body shared with the gateway: `{type, title, status, detail, code, message, requestId, details}`. */
export function problemBody(error: BackendError, requestId: string | null): Record<string, unknown> {
  const { status, title } = BACKEND_ERRORS[error.code];
  return {
    type: `urn:dl-version-gateway:problem:${error.code}`,
    title,
    status,
    detail: error.message,
    code: error.code,
    message: error.message,
    requestId,
    details: error.details,
  };
}

/**
 * A missing object as real DataLens describes it: `details.title` is the real error code (COLLECTION_NOT_EXISTS,
 * WORKBOOK_NOT_EXISTS, NOT_EXIST_ENTRY) and `details.description` its sentence (the recorded v1 answers of
 * datalens-us 91ff69b), beside the ids this backend names; `code` stays NOT_FOUND, the catalogue's.
 */
export const REAL_NOT_FOUND = {
  collection: { title: 'COLLECTION_NOT_EXISTS', description: "The collection doesn't exist" },
  workbook: { title: 'WORKBOOK_NOT_EXISTS', description: "The workbook doesn't exist" },
  entry: { title: 'NOT_EXIST_ENTRY', description: "The entry doesn't exist" },
} as const;

export const notFound = (kind: keyof typeof REAL_NOT_FOUND, message: string, ids: Readonly<Record<string, unknown>>): BackendError =>
  new BackendError('NOT_FOUND', message, { ...REAL_NOT_FOUND[kind], ...ids });
