/**
 * The bodies webhooks receive for a notice to a caller. Pure. `json` carries everything a mail
 * merge or a ticketing hook needs, as it was seen; `slack` is one line of plain text, escaped like the alerts'.
 */
import { escapeSlackText } from './escape-slack-text.js';
import type { WebhookFormat } from './format-alert-payload.js';

export interface NoticeContent {
  plan: { id: number; name: string; scope: string; policyUrl: string | null };
  stage: { kind: 'brownout' | 'block-new' | 'cut'; at: number; endsAt: number | null; daysBefore: number };
  caller: { integration: string; displayName: string | null; owner: string | null; contact: string | null };
  /** The caller's served work requests in the plan's scope over its quiet days, and the versions they came by. */
  usage: { days: number; requests: number; versions: readonly string[]; lastSeen: number };
}

const iso = (at: number) => new Date(at).toISOString();

/** What the stage does, in words around the scope's label ("Legacy", "http+sse", "Version 2025-06-18"). */
function stageWords(kind: NoticeContent['stage']['kind'], scope: string): string {
  switch (kind) {
    case 'brownout':
      return `refuses ${scope} requests in a brownout`;
    case 'block-new':
      return `refuses ${scope} requests from callers new to it`;
    case 'cut':
      return `refuses every ${scope} request (the cut)`;
  }
}

/** One sentence a person can forward as it is. */
export function noticeSummary(notice: NoticeContent): string {
  const { plan, stage, caller, usage } = notice;
  const who = caller.displayName === null ? caller.integration : `${caller.displayName} (${caller.integration})`;
  const when = stage.kind === 'brownout' && stage.endsAt !== null ? `from ${iso(stage.at)} to ${iso(stage.endsAt)}` : `from ${iso(stage.at)}`;
  const versions = usage.versions.length === 0 ? '' : ` with ${usage.versions.join(', ')}`;
  const policy = plan.policyUrl === null ? '' : ` Policy: ${plan.policyUrl}`;
  return `${who}: in ${stage.daysBefore} day${stage.daysBefore === 1 ? '' : 's'}, plan "${plan.name}" ${stageWords(stage.kind, plan.scope)} ${when}. It sent ${usage.requests} requests in scope over the last ${usage.days} days${versions}.${policy}`;
}

export function formatNoticePayload(notice: NoticeContent, format: WebhookFormat): Record<string, unknown> {
  const summary = noticeSummary(notice);
  if (format === 'slack') {
    const owner = notice.caller.owner === null ? '' : ` Owner: ${notice.caller.owner}${notice.caller.contact === null ? '' : `, ${notice.caller.contact}`}.`;
    return { text: `[NOTICE] ${escapeSlackText(`${summary}${owner}`)}` };
  }
  const { stage, usage } = notice;
  return {
    source: 'mcp-sunset',
    kind: 'notice',
    summary,
    plan: notice.plan,
    stage: { kind: stage.kind, at: iso(stage.at), endsAt: stage.endsAt === null ? null : iso(stage.endsAt), daysBefore: stage.daysBefore },
    caller: notice.caller,
    usage: { ...usage, versions: [...usage.versions], lastSeen: iso(usage.lastSeen) },
    policyUrl: notice.plan.policyUrl,
  };
}
