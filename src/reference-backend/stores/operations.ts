// Workbook export and import operations: accepted at once, then pending until their status has been read once,
// then finished (success, or error when cancelled). Deterministic: no timers, every poll moves it on.
// Answer shapes: datalens-tech/datalens-ui src/shared/schema/meta-manager/schemas/{export,import}/*.ts;
// statuses from src/shared/constants/meta-manager/index.ts (PROCESS_STATUS).

import { BackendError } from '../shared/errors.js';
import { freshId } from '../shared/ids.js';

export type ProcessStatus = 'pending' | 'success' | 'error';

export interface Notification {
  code: string;
  message?: string;
  level: 'info' | 'warning' | 'critical';
  entryId?: string;
  scope?: string;
}

export interface Operation {
  readonly id: string;
  readonly kind: 'export' | 'import';
  readonly workbookId: string;
  status: ProcessStatus;
  progress: number;
  notifications: Notification[];
  /** The export's payload, or the import's source: taken when the operation completes. */
  readonly payload: Record<string, unknown>;
  /** Runs once when the operation completes (an import creates its entries then). */
  readonly complete?: () => void;
}

export class OperationStore {
  private readonly byId = new Map<string, Operation>();

  start(kind: Operation['kind'], workbookId: string, payload: Record<string, unknown>, complete?: () => void): Operation {
    const op: Operation = {
      id: freshId(kind === 'export' ? 'exp' : 'imp', this.byId),
      kind,
      workbookId,
      status: 'pending',
      progress: 0,
      notifications: [],
      payload,
      ...(complete && { complete }),
    };
    this.byId.set(op.id, op);
    return op;
  }

  require(id: string, kind: Operation['kind']): Operation {
    const op = this.byId.get(id);
    if (op === undefined || op.kind !== kind) {
      throw new BackendError('NOT_FOUND', `${kind === 'export' ? 'Export' : 'Import'} ${id} not found.`, { [`${kind}Id`]: id });
    }
    return op;
  }

  /** The status as this poll sees it; a pending operation reports pending once, then completes. */
  poll(id: string, kind: Operation['kind']): Operation {
    const op = this.require(id, kind);
    if (op.status !== 'pending') return op;
    if (op.progress === 0) {
      op.progress = 50;
      return { ...op, notifications: [...op.notifications] };
    }
    op.complete?.();
    op.status = 'success';
    op.progress = 100;
    return op;
  }

  cancel(id: string): Operation {
    const op = this.require(id, 'export');
    if (op.status === 'pending') {
      op.status = 'error';
      op.notifications.push({ code: 'EXPORT_CANCELLED', message: 'The export was cancelled.', level: 'info' });
    }
    return op;
  }
}
