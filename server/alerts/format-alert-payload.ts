/**
 * The bodies webhooks receive for a transition. Pure.
 * `json` is for machines and carries the whole alert, its values as they were seen; `slack` is a
 * single line of plain text (Slack's incoming-webhook shape, also accepted by Mattermost and
 * Rocket.Chat), without emoji, escaped so that nothing a caller wrote reads as markup there.
 */
import type { AlertDraft } from '../store/records/alert-record.js';
import { escapeSlackText } from './escape-slack-text.js';

export type WebhookFormat = 'json' | 'slack';

export interface AlertJsonPayload {
  source: 'mcp-sunset';
  state: 'firing' | 'resolved';
  rule: string;
  fingerprint: string;
  subject: string;
  severity: string;
  summary: string;
  details: Record<string, unknown>;
  firstFiredAt: string | null;
  lastFiredAt: string | null;
  resolvedAt: string | null;
}

export interface AlertSlackPayload {
  text: string;
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

export function formatAlertPayload(kind: 'firing' | 'resolved', alert: AlertDraft, format: WebhookFormat): AlertJsonPayload | AlertSlackPayload {
  if (format === 'slack') return { text: `[${kind.toUpperCase()}] ${alert.rule}: ${escapeSlackText(alert.summary)}` };
  return {
    source: 'mcp-sunset',
    state: kind,
    rule: alert.rule,
    fingerprint: alert.fingerprint,
    subject: alert.subject,
    severity: alert.severity,
    summary: alert.summary,
    details: alert.details,
    firstFiredAt: iso(alert.firstFiredAt),
    lastFiredAt: iso(alert.lastFiredAt),
    resolvedAt: iso(alert.resolvedAt),
  };
}
