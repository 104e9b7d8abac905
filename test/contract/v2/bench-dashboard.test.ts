// The benchmark's real-shaped dashboard (bench/dashboard.ts) is a createDashboard body version 2 accepts, as
// `npm run bench` sends it: a contract that tightens the dashboard schema must keep the bench's dashboard real.

import { describe, expect, it } from 'vitest';
import { realShapedDashboardData } from '../../../bench/dashboard.js';
import { shippedContract } from '../../../src/contract/index.js';
import { loadContract, methodAt } from '../../../src/core/contract-model/load.js';

describe("the bench's real-shaped dashboard", () => {
  it('is a valid createDashboard body at version 2', () => {
    const request = methodAt(loadContract(shippedContract), 2, 'createDashboard')?.request;
    const parsed = request?.safeParse({ entry: { workbookId: 'wb_bench', name: 'bench-real-shaped-dashboard', data: realShapedDashboardData(), meta: {} } });
    expect(parsed?.error?.issues.slice(0, 5) ?? []).toEqual([]);
  });
});
