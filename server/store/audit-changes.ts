/**
 * The audit records a change leaves, from the rows before and after it. Pure and dialect-neutral:
 * each store runs it inside the change's own transaction and writes what it answers, so a change
 * and its record are stored together or not at all.
 */
import type { AuditAction, AuditInput } from './records/audit-event-record.js';
import type { BridgeRevocationRecord } from './records/bridge-revocation-record.js';
import type { CallerAliasRecord } from './records/caller-alias-record.js';
import type { CallerContactRecord } from './records/caller-contact-record.js';
import type { CallerNoticeRecord } from './records/caller-notice-record.js';
import type { IntegrationRecord } from './records/integration-record.js';
import type { PlanPauseRecord } from './records/plan-pause-record.js';
import type { PlanRecord } from './records/plan-record.js';

/** Who a change is recorded as when its caller named no one (tests, and internal upkeep). */
export const UNATTRIBUTED = 'unattributed';

/** The config file's declared plans, synced at start. */
export const CONFIG_FILE_ACTOR = 'config file';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `after` that differ from `before`, each side with its own values; null when none do. */
export function changedFields<T extends object>(before: T, after: T, ignore: readonly (keyof T)[] = []): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    if (ignore.includes(key) || same(before[key], after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return Object.keys(now).length === 0 ? null : { before: was, after: now };
}

const PLAN_IGNORED: readonly (keyof PlanRecord)[] = ['updatedAt'];

/** A plan made or changed: archived and restored by their own names, with any other change beside. */
export function planAudit(before: PlanRecord | undefined, after: PlanRecord, actor: string): AuditInput | null {
  const subject = `plan:${after.id}`;
  if (before === undefined) return { actor, action: 'plan.create', subject, before: null, after: { ...after } };
  const diff = changedFields(before, after, PLAN_IGNORED);
  if (diff === null) return null;
  const action: AuditAction = before.archivedAt === null && after.archivedAt !== null ? 'plan.archive' : before.archivedAt !== null && after.archivedAt === null ? 'plan.restore' : 'plan.update';
  return { actor, action, subject, ...diff };
}

/** The records of the declared plans' sync: each plan made, changed, archived or restored by the file. */
export function declaredPlanAudits(before: readonly PlanRecord[], after: readonly PlanRecord[]): AuditInput[] {
  const was = new Map(before.map((plan) => [plan.id, plan]));
  return after.flatMap((plan) => planAudit(was.get(plan.id), plan, CONFIG_FILE_ACTOR) ?? []);
}

/** Pauses begun (a row not there before) and ended early (a row whose end was set). */
export function pauseAudits(before: readonly PlanPauseRecord[], after: readonly PlanPauseRecord[], actor: string): AuditInput[] {
  const was = new Map(before.map((pause) => [pause.id, pause]));
  return after.flatMap((pause): AuditInput[] => {
    const old = was.get(pause.id);
    const subject = `pause:${pause.id}`;
    if (old === undefined) return [{ actor, action: 'pause.start', subject, before: null, after: { ...pause } }];
    const diff = changedFields(old, pause);
    return diff === null ? [] : [{ actor, action: 'pause.end', subject, ...diff }];
  });
}

export function revocationAudit(before: BridgeRevocationRecord | undefined, after: BridgeRevocationRecord, actor: string): AuditInput | null {
  const subject = `bridge-session:${after.sessionId}`;
  if (before === undefined) return { actor, action: 'bridge.revoke', subject, before: null, after: { ...after } };
  const diff = changedFields(before, after);
  return diff === null ? null : { actor, action: 'bridge.revoke', subject, ...diff };
}

const INTEGRATION_FIELDS = ['displayName', 'owner', 'contact', 'status', 'notes'] as const;

/** What operators edit about a caller; its sightings and counts move with traffic and are not audited. */
export function integrationAudit(before: IntegrationRecord, after: IntegrationRecord, actor: string): AuditInput | null {
  const pick = (record: IntegrationRecord) => Object.fromEntries(INTEGRATION_FIELDS.map((field) => [field, record[field]]));
  const diff = changedFields(pick(before), pick(after));
  return diff === null ? null : { actor, action: 'integration.update', subject: `integration:${after.key}`, ...diff };
}

/** A notice sent (or failed), recorded by the node that sent it. */
export function noticeAudit(row: CallerNoticeRecord): AuditInput {
  const { id, planId, integration, stage, stageAt, daysBefore, status, attempts, lastError } = row;
  return { actor: `notices (${row.node})`, action: 'notice.send', subject: `integration:${integration}`, before: null, after: { id, planId, stage, stageAt, daysBefore, status, attempts, lastError } };
}

/** A contact made by hand, recorded as made by the operator who records it. */
export function contactAudit(row: CallerContactRecord): AuditInput {
  return { actor: row.by, action: 'contact.record', subject: `integration:${row.integration}`, before: null, after: { ...row } };
}

/** A name joined into a caller, or given its own history back: recorded under the name. */
export function joinAudit(row: CallerAliasRecord, action: 'caller.join' | 'caller.unjoin', actor: string): AuditInput {
  const fields = { alias: row.alias, caller: row.caller, note: row.note };
  return { actor, action, subject: `integration:${row.alias}`, before: action === 'caller.join' ? null : fields, after: action === 'caller.join' ? fields : null };
}
