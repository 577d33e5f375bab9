import type { ClassifiedMessage } from '../protocol/classified-message.js';
import type { StdioLineClassification } from '../protocol/classify-stdio-line.js';
import { policyShapeOf } from '../protocol/policy-shape.js';
import { PASS, type CompiledPolicy, type PolicyDecision } from '../policy/compiled-policy.js';

export interface StdioLineDecision {
  decision: PolicyDecision;
  /** The request the refusal answers, when the decision refuses. */
  refused: ClassifiedMessage | undefined;
}

const PASSED: StdioLineDecision = Object.freeze({ decision: PASS, refused: undefined });

/**
 * The policy's decision for one client line: it is refused whole when any request in it is
 * refused, since the line is passed on whole or not at all; otherwise the first decision that
 * marks it would-block stands. Stdio carries no headers, so announcing decisions change nothing.
 */
export function decideStdioLine(policy: CompiledPolicy, line: StdioLineClassification, integration: string, now: number): StdioLineDecision {
  let found: PolicyDecision = PASS;
  const context = { stdio: true, batch: line.batch } as const;
  for (const message of line.messages) {
    const shape = policyShapeOf(message, context);
    if (shape === undefined) continue;
    const decision = policy.decide(shape, integration, now);
    if (decision.refusedBy !== null) return { decision, refused: message };
    if (decision.wouldBlock && !found.wouldBlock) found = decision;
  }
  return found === PASS ? PASSED : { decision: found, refused: undefined };
}
