// What the shipped contract's migrations reach through their context: legacy-key lookups and page tokens.

/** Who is asking, and the backend on their behalf: the part of a migration's context a lookup needs. */
export interface OnBehalfOf {
  readonly principal: string;
  readonly callBackend: (method: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

export interface LegacyKeyResolution {
  readonly workbookId: string;
  readonly via: 'config' | 'backend';
}

export interface LegacyKeyResolver {
  /**
   * The workbook id for a v1 report key: the operator's prefix mapping first, then a backend lookup; undefined if none.
   * Answers at once (no promise) when the mapping or this process's cache knows the key.
   */
  resolve(key: string, ctx: OnBehalfOf): LegacyKeyResolution | undefined | Promise<LegacyKeyResolution | undefined>;
}

/** Page tokens by key (caller, query and position); what a key means is the page-walk's business. */
export interface PageTokenCache {
  /** Backend calls one request may spend walking to a page whose token is not known (`paging.maxWalkCalls`). */
  readonly maxWalkCalls: number;
  /** The tokens under `keys`, in order; undefined where none is known. Never rejects. */
  getMany(keys: readonly string[]): Promise<ReadonlyArray<string | undefined>>;
  /** Remembers a token; resolves once stored (shared stores included) or given up on. Never rejects. */
  set(key: string, token: string): Promise<void>;
}

/** The runtime's services a migration may use (built per gateway generation from the operator's settings). */
export interface ContractServices {
  readonly legacyKeys: LegacyKeyResolver;
  readonly pageTokens: PageTokenCache;
}
