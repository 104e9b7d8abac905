// Access bindings (a subject holding a role) on collections, workbooks and shared entries, and the operations that
// change them: each update is recorded as a finished operation (this backend applies the deltas at once).
// Shapes: the real spec's USAccessBindingDelta, IamSubjectWithBindings and DatalensOperation components.

import { randomUUID } from 'node:crypto';

export type ResourceType = 'collection' | 'workbook' | 'entry';

export interface Binding {
  readonly roleId: string;
  readonly subject: { readonly id: string; readonly type: string };
}

export interface Delta {
  readonly action: 'ADD' | 'REMOVE';
  readonly accessBinding: Binding;
}

export interface BindingOperation {
  readonly id: string;
  readonly resource: { readonly type: ResourceType; readonly id: string };
  readonly deltas: readonly Delta[];
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly done: true;
}

const same = (a: Binding, b: Binding): boolean => a.roleId === b.roleId && a.subject.id === b.subject.id && a.subject.type === b.subject.type;

export class AccessBindingStore {
  private readonly byResource = new Map<string, Binding[]>();
  private readonly operations = new Map<string, BindingOperation>();

  /** The bindings set directly on a resource, in the order they were added. */
  of(type: ResourceType, id: string): readonly Binding[] {
    return this.byResource.get(`${type}:${id}`) ?? [];
  }

  /** Applies the deltas in order (adding a held binding or removing an absent one changes nothing) and records the operation. */
  update(type: ResourceType, id: string, deltas: readonly Delta[], actor: string): BindingOperation {
    let bindings = [...this.of(type, id)];
    for (const delta of deltas) {
      const b = delta.accessBinding;
      bindings = bindings.filter((held) => !same(held, b));
      if (delta.action === 'ADD') bindings.push({ roleId: b.roleId, subject: { id: b.subject.id, type: b.subject.type } });
    }
    this.byResource.set(`${type}:${id}`, bindings);
    const op: BindingOperation = { id: `op_${randomUUID().replaceAll('-', '').slice(0, 16)}`, resource: { type, id }, deltas, createdBy: actor, createdAt: new Date(), done: true };
    this.operations.set(op.id, op);
    return op;
  }

  operation(id: string): BindingOperation | undefined {
    return this.operations.get(id);
  }
}
