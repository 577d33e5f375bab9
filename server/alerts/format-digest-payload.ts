/**
 * The weekly digest as the webhooks and the API carry it. Pure. `json` is the digest itself with
 * times as ISO strings (the same document `GET /api/v1/digest` answers); `slack` is its summary,
 * one sentence per line (each escaped for the chat), under a title.
 */
import type { DigestStage, Span } from '../analysis/compose-digest.js';
import type { SummarizedDigest } from '../analysis/summarize-digest.js';
import { escapeSlackText } from './escape-slack-text.js';
import type { WebhookFormat } from './format-alert-payload.js';

const iso = (at: number) => new Date(at).toISOString();
const span = (s: Span) => ({ from: iso(s.from), to: iso(s.to) });
const stage = (s: DigestStage) => ({ ...s, at: iso(s.at), endsAt: s.endsAt === null ? null : iso(s.endsAt) });

export function digestToJson(digest: SummarizedDigest) {
  const { share } = digest;
  return {
    generatedAt: iso(digest.generatedAt),
    period: span(digest.period),
    previous: span(digest.previous),
    share: { ...share, trend: { ...share.trend, projectedDate: share.trend.projectedDate === null ? null : iso(share.trend.projectedDate) } },
    plans: digest.plans.map((plan) => ({
      ...plan,
      pause: plan.pause === null ? null : { reason: plan.pause.reason, endsAt: iso(plan.pause.endsAt) },
      inForce: plan.inForce.map(stage),
      nextStage: plan.nextStage === null ? null : stage(plan.nextStage),
    })),
    callers: digest.callers,
    links: digest.links,
    summary: digest.summary,
  };
}

export type DigestJson = ReturnType<typeof digestToJson>;

export function formatDigestPayload(digest: DigestJson, format: WebhookFormat): Record<string, unknown> {
  if (format === 'slack') return { text: [`*mcp-sunset weekly digest*`, ...digest.summary.map(escapeSlackText)].join('\n') };
  return { source: 'mcp-sunset', kind: 'digest', ...digest };
}
