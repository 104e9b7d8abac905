// What the shipped contract's migrations need from the running gateway: operator settings and caches.

import type { MigrationContext } from '../core/contract/types.js';

export interface LegacyKeyResolver {
  /** The workbook id for a v1 report key: the operator's prefix mapping first, then a backend lookup; undefined if none. */
  resolve(key: string, ctx: MigrationContext): Promise<{ workbookId: string; via: 'config' | 'backend' } | undefined>;
}

export interface PageTokenCache {
  get(key: string): string | undefined;
  set(key: string, token: string): void;
}

export interface ContractDeps {
  readonly legacyKeys: LegacyKeyResolver;
  readonly pageTokens: PageTokenCache;
}
