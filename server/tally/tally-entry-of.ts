import type { ClassifiedMessage, ClientInfoHint } from '../protocol/classified-message.js';
import type { Outcome } from '../protocol/vocabulary.js';
import type { TallyEntry } from './tally.js';

/** A settled message with the caller the sidecar identified; every sidecar form produces one. */
export interface SettledMessage {
  message: ClassifiedMessage;
  outcome: Outcome;
  claimMismatch: boolean;
  clientInfo: ClientInfoHint | undefined;
  /** The caller, and whether a plan in dry run would have refused the exchange. */
  attrs: { integration: string; source: string; wouldBlock?: boolean; subject?: string; userAgent?: string };
  /** A request's duration as the meter saw it, when it was timed. */
  seconds?: number;
  /** For a refused message, the plan and the cause. */
  refusal?: { plan: number; cause: string };
}

/** The tally entry a settled message is counted as: one cell's labels plus what is kept of the caller. */
export function tallyEntryOf(settled: SettledMessage): TallyEntry {
  const { message, outcome, attrs } = settled;
  return {
    labels: {
      era: message.era,
      transport: message.transport,
      reason: message.reason,
      version: message.version,
      method: message.method,
      kind: message.kind,
      outcome,
      integration: attrs.integration,
    },
    integrationSource: attrs.source,
    clientInfo: settled.clientInfo,
    claimMismatch: settled.claimMismatch,
    wouldBlock: attrs.wouldBlock === true,
    ...(settled.seconds === undefined ? {} : { seconds: settled.seconds }),
    ...(settled.refusal === undefined ? {} : { refusal: settled.refusal }),
    subject: attrs.subject,
    // Only for the unknown base: what a named caller claims to be is kept on its record instead.
    unnamed: attrs.source === 'anonymous',
    userAgent: attrs.userAgent,
  };
}
