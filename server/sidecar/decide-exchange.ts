import type { ClassifiedMessage } from '../protocol/classified-message.js';
import type { HttpRequestClassification } from '../protocol/classify-http-request.js';
import { alternateShapeOf, policyShapeOf } from '../protocol/policy-shape.js';
import { PASS, type CompiledPolicy, type PolicyDecision } from '../policy/compiled-policy.js';

export interface ExchangeDecision {
  decision: PolicyDecision;
  /** The message the refusal answers, when the decision refuses. */
  refused: ClassifiedMessage | undefined;
}

const PASSED: ExchangeDecision = Object.freeze({ decision: PASS, refused: undefined });

/**
 * The policy's decision for one exchange: it is refused whole when any request (or stream
 * opening) in it is refused, since one HTTP answer carries them all. Otherwise it is would-block
 * when a dry run would refuse any of them (as deny would refuse the whole exchange), and carries
 * the first announcing headers.
 */
export function decideExchange(policy: CompiledPolicy, classification: HttpRequestClassification, integration: string, now: number, unverified = false): ExchangeDecision {
  let found: PolicyDecision = PASS;
  for (const message of classification.messages) {
    const shape = policyShapeOf(message, classification);
    if (shape === undefined) continue;
    const decision = policy.decide(shape, integration, now, unverified);
    if (decision.refusedBy !== null) return { decision, refused: message };
    const alternate = alternateShapeOf(message, classification);
    if (alternate !== undefined) {
      const either = policy.decide(alternate, integration, now, unverified);
      if (either.refusedBy !== null) return { decision: either, refused: message };
    }
    if (found === PASS) found = decision;
    else if ((decision.wouldBlock && !found.wouldBlock) || (decision.headers.length > 0 && found.headers.length === 0)) {
      found = { ...found, wouldBlock: found.wouldBlock || decision.wouldBlock, headers: found.headers.length > 0 ? found.headers : decision.headers };
    }
  }
  return found === PASS ? PASSED : { decision: found, refused: undefined };
}
