/**
 * What the audit trail records, one value per kind of change an operator (or the config file) makes:
 * - plan.create, plan.update: a plan made, or any of its fields changed (brownouts and exemptions included);
 * - plan.archive, plan.restore: a plan archived (deleted through the API), or back in the config file;
 * - pause.start, pause.end: a pause of a plan's refusals begun, or ended early (resumed, or replaced by a new one);
 * - bridge.revoke: a legacy-bridge session revoked, or its revocation made to last longer;
 * - integration.update: what operators know about a caller (name, owner, contact, status, notes) changed;
 * - notice.send: a notice to a caller delivered or failed (by the node that sent it);
 * - contact.record: a contact made by hand (a call, a ticket) recorded for a caller;
 * - caller.join, caller.unjoin: a name joined into another caller, or given its own history back.
 */
export const AUDIT_ACTIONS = ['plan.create', 'plan.update', 'plan.archive', 'plan.restore', 'pause.start', 'pause.end', 'bridge.revoke', 'integration.update', 'notice.send', 'contact.record', 'caller.join', 'caller.unjoin'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditInput {
  actor: string;
  action: AuditAction;
  subject: string;
  /** The fields that changed, as they were; null for something new. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** One change, written in the change's own transaction: who, when, what, and the fields before and after. */
export interface AuditEventRecord extends AuditInput {
  id: number;
  at: number;
}

export interface AuditQuery {
  /** Only the records about this subject (`plan:3`, `pause:7`, …). */
  subject?: string;
  /** Only records older than this one (its id), for the next page. */
  before?: number;
  limit: number;
}
