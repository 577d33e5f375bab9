import { DECLARED_ERAS, type DeclaredEra } from '../protocol/declare-era.js';

/** What a metered exchange keeps of the host's word on it; the meter reads it when each message is counted. */
export interface Declaration {
  declaredEra?: DeclaredEra;
}

// Kept on the response object itself, so a declaration dies with its exchange and hosts need no
// handle of ours. Not in a WeakMap: one entry per request there is extra work for every garbage collection.
const DECLARATION = Symbol('mcp-sunset declaration');

/** Ties a metered exchange's declaration to its response. */
export function trackDeclaration(res: object, declaration: Declaration): void {
  (res as { [DECLARATION]?: Declaration })[DECLARATION] = declaration;
}

/**
 * Declares which era served the request this response answers: the count files it under that era,
 * with reason `declared-by-app`, instead of the classifier's. It applies to the messages counted
 * after the call, so call it before the answer ends (before `writeHead` for a GET stream). A response
 * the middleware does not meter is left alone.
 */
export function servedBy(res: object, era: DeclaredEra): void {
  if (!DECLARED_ERAS.includes(era)) throw new TypeError(`servedBy: era must be one of ${DECLARED_ERAS.join(', ')}, not ${String(era)}`);
  const declaration = (res as { [DECLARATION]?: Declaration })[DECLARATION];
  if (declaration !== undefined) declaration.declaredEra = era;
}
