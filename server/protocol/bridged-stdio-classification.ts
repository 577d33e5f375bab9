/**
 * How a stdio line the bridge answers is counted. Pure; never throws.
 */
import { classified } from './classified-message.js';
import type { StdioLineClassification } from './classify-stdio-line.js';

/**
 * The classification of a client line the bridge takes, or undefined when it is not the bridge's:
 * only legacy lines are bridged, and a line whose every message is modern (or unreadable) goes to
 * the server as it is. Every message of a bridged line is filed as legacy under reason `bridge`, at
 * the version the process negotiated; an `initialize` keeps the version it asked for until its
 * answer fixes the negotiated one. The modern lines the bridge writes to the server never pass the
 * meter, so nothing is counted twice.
 */
export function bridgedStdioClassification(classification: StdioLineClassification, negotiatedVersion: string | null): StdioLineClassification | undefined {
  const { messages } = classification;
  let legacy = false;
  for (const message of messages) if (message.era === 'legacy') legacy = true;
  if (!legacy) return undefined;
  return {
    messages: messages.map((message) => classified({ ...message, era: 'legacy', reason: 'bridge', version: negotiatedVersion ?? message.version })),
    cancels: classification.cancels,
    batch: classification.batch,
  };
}
