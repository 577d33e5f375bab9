import { bridgedClassification } from '../protocol/bridged-classification.js';
import { asJudged } from '../protocol/policy-shape.js';
import type { HttpRequestClassification, HttpRequestFacts } from '../protocol/classify-http-request.js';
import { hasRepeatedKey } from '../protocol/has-repeated-key.js';
import { httpRefusal, type HttpRefusal } from '../protocol/policy-refusal.js';
import { PASS, type CompiledPolicy, type PolicyDecision } from '../policy/compiled-policy.js';
import { decideExchange, type ExchangeDecision } from './decide-exchange.js';
import { GuardedExchange } from './guarded-exchange.js';
import { challengeRefusal } from './auth-challenge.js';
import type { HttpMeter } from './http-meter.js';
import type { Caller } from './identify-caller.js';

export interface GatedExchange<A> {
  exchange: GuardedExchange<A>;
  decision: PolicyDecision;
  /** The answer given in the server's place, when a plan refuses the request. */
  refusal: HttpRefusal | undefined;
  /** What the exchange counts its messages under: the caller's own, or a copy marked would-block. */
  attrs: A | undefined;
  /** True when the legacy bridge answers the request, not the server. */
  bridged: boolean;
}

/** What gating needs of the legacy bridge, when one answers legacy requests. */
export interface BridgeLookup {
  /** The negotiated version a bridge session id carries, when this node can open it. */
  sessionVersion(sessionId: string): string | undefined;
  /** The method of an input request the bridge sent under `id` (on any node: the id says). */
  inputRequestMethod(id: string | number): string | undefined;
}

/** The decision for a request no plan enforces on: shared, so passing one allocates nothing. */
const UNDECIDED: ExchangeDecision = Object.freeze({ decision: PASS, refused: undefined });

/** An exchange passed on unmetered and unannounced. */
export function ungated<A>(report: (error: unknown, where: string) => void): GatedExchange<A> {
  return { exchange: new GuardedExchange<A>(undefined, report), decision: PASS, refusal: undefined, attrs: undefined, bridged: false };
}

/**
 * Classifies one MCP request, asks the policy in force about it and opens the exchange that
 * follows its answer; a refused request is counted `blocked` here and gets its refusal instead.
 * Shared by the proxy and the in-process middleware, so both decide and count a request alike.
 * With a bridge, a legacy request is the bridge's, and is counted and decided as such (reason
 * `bridge`, the version its session negotiated): the plan still decides first.
 * Never throws: a fault in metering or in the policy lets the request through, unmetered and
 * unannounced, and is reported.
 */
export function gateExchange<A extends Caller>(
  meter: HttpMeter<A>,
  facts: HttpRequestFacts,
  caller: A,
  policy: CompiledPolicy | undefined,
  now: () => number,
  report: (error: unknown, where: string) => void,
  bridge?: BridgeLookup,
  /** How the server asks a client with no credential to sign in, when it does (see AuthChallenge). */
  challenge?: () => string | undefined,
): GatedExchange<A> {
  let where = 'classify';
  try {
    let classification = meter.classify(facts);
    let bridged = false;
    if (bridge !== undefined) {
      const { sessionId } = classification;
      const relabelled = bridgedClassification(classification, sessionId === undefined ? null : (bridge.sessionVersion(sessionId) ?? null), bridge);
      if (relabelled !== undefined) {
        classification = relabelled;
        bridged = true;
      }
    }
    where = 'policy';
    let { decision, refused } = policy?.enforcing ? decideExchange(policy, classification, caller.integration, now(), caller.unverified === true) : UNDECIDED;
    if (decision.refusedBy === null && policy?.enforcing && admitsModern(classification) && readingsRepeatKeys(facts)) {
      // Admitted as modern on one parser's reading of a body others read differently: judged again
      // as the unreadable body it is, so a plan that refuses what it cannot show modern refuses it.
      const ambiguous = meter.classify({ ...facts, ambiguousJson: true });
      const judged = decideExchange(policy, ambiguous, caller.integration, now(), caller.unverified === true);
      if (judged.decision.refusedBy !== null) {
        classification = ambiguous;
        ({ decision, refused } = judged);
      }
    }
    if (decision.refusedBy === null && policy?.enforcing && facts.otherReadings !== undefined) {
      // A server may read the bytes another way: the request is refused if any reading is.
      for (const body of facts.otherReadings) {
        const other = meter.classify({ ...facts, body });
        const judged = decideExchange(policy, other, caller.integration, now(), caller.unverified === true);
        if (judged.decision.refusedBy !== null) {
          ({ decision, refused } = judged);
          break;
        }
      }
    }
    if (decision.refusedBy !== null && refused !== undefined) {
      // A client that has not signed in yet is told to, as the server would tell it: refused now, it
      // could never learn that signing in names an application the plan lets through.
      const signIn = facts.headers.authorization === undefined ? challenge?.() : undefined;
      const refusal = signIn !== undefined ? challengeRefusal(signIn) : httpRefusal(classification.messages, refused, classification.sessionId, { ...decision.refusedBy.refusal, cause: decision.cause!, brownoutEndsAt: decision.brownoutEndsAt });
      meter.refused({ ...classification, messages: asJudged(classification.messages, classification) }, caller, { plan: decision.refusedBy.id, cause: decision.cause! });
      return { exchange: new GuardedExchange<A>(undefined, report), decision, refusal, attrs: caller, bridged };
    }
    where = 'classify';
    const attrs = decision.wouldBlock ? { ...caller, wouldBlock: true } : caller;
    return { exchange: new GuardedExchange(meter.follow(classification, facts, attrs), report), decision, refusal: undefined, attrs, bridged };
  } catch (error) {
    report(error, where);
    return ungated(report);
  }
}

/** True when a message of the exchange is a modern one: the only kind a repeated key could smuggle past a cut. */
function admitsModern(classification: HttpRequestClassification): boolean {
  for (const message of classification.messages) if (message.era === 'modern') return true;
  return false;
}

function readingsRepeatKeys(facts: HttpRequestFacts): boolean {
  if (facts.body !== undefined && hasRepeatedKey(facts.body)) return true;
  for (const body of facts.otherReadings ?? []) if (hasRepeatedKey(body)) return true;
  return false;
}

/** The head of a refusal: its own headers, then the plan's announcement. */
export function refusalHeaders(refusal: HttpRefusal, announce: readonly string[]): string[] {
  return ['Content-Type', refusal.contentType, 'Content-Length', String(Buffer.byteLength(refusal.body)), ...refusal.headers, ...announce];
}
