// Where the version-2 method schemas of this folder come from: the real DataLens Public API OpenAPI document.
//
// datalens-tech/datalens-sdk, spec/yacloud.json, commit 021501bb6ccd3165eaa128155d91f67e01525fe9 (served by
// https://api.datalens.tech/json); its components carry the same names in the real version-2 document
// (the live spec at https://api.datalens.tech/json/ as of 2026-07-27). Each schema below names its component.

/** The spec document the schemas cite, for comments and tests. */
export const REAL_SPEC = 'datalens-tech/datalens-sdk spec/yacloud.json@021501bb6ccd3165eaa128155d91f67e01525fe9';
