import type { IncomingMessage } from 'node:http';
import { bridgeStep, type BridgeStep } from '../protocol/bridge-step.js';
import { LEGACY_BAD_REQUEST, PARSE_ERROR } from '../protocol/error-codes.js';
import { rpcError } from '../protocol/rpc-error.js';
import type { BridgeAnswer } from './bridge-answer.js';
import type { BridgedRequest } from './bridged-request.js';

/** The step a POST's body asks for; undefined once a body too large, or not JSON, has been answered. */
export function readBridgeStep(req: IncomingMessage, answer: BridgeAnswer, request: BridgedRequest): BridgeStep | undefined {
  if (request.bodyTooLarge || request.body === undefined) {
    req.resume();
    answer.json(413, rpcError(null, LEGACY_BAD_REQUEST, 'mcp-sunset bridge: request body too large'));
    return undefined;
  }
  try {
    return bridgeStep(JSON.parse(request.body.toString('utf8')));
  } catch {
    answer.json(400, rpcError(null, PARSE_ERROR, 'mcp-sunset bridge: the body is not JSON'));
    return undefined;
  }
}
