// The real version-3 spec's marks on its operations, as data: the chart methods it calls experimental (a
// `🚧 [Experimental] ` summary) and the chart writes it hides from MCP servers (`x-mcp-disabled: true`).
// Source: datalens-tech/datalens-sdk spec/yacloud.json @ 021501bb6ccd3165eaa128155d91f67e01525fe9, `paths`.

import type { MethodSpec } from '../../core/contract-model/types.js';

const EXPERIMENTAL = [
  'createEditorChart', 'getEditorChart', 'updateEditorChart',
  'createQLChart', 'getQLChart', 'updateQLChart',
  'createWizardChart', 'getWizardChart', 'updateWizardChart',
];
const MCP_DISABLED = ['createQLChart', 'updateQLChart', 'createWizardChart', 'updateWizardChart'];

/** `methods` with the real spec's marks set on the methods it marks. */
export function withRealMarksV3(methods: Readonly<Record<string, MethodSpec>>): Record<string, MethodSpec> {
  const out = { ...methods };
  const mark = (name: string, flag: Partial<MethodSpec>) => {
    const spec = Object.hasOwn(out, name) ? out[name] : undefined;
    if (!spec) throw new Error(`the real spec marks ${name}, which version 3 does not have`);
    out[name] = { ...spec, ...flag };
  };
  for (const name of EXPERIMENTAL) mark(name, { experimental: true });
  for (const name of MCP_DISABLED) mark(name, { mcpDisabled: true });
  return out;
}
