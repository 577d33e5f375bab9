import { CALLER_SOURCES, type Caller } from './identify-caller.js';

const SOURCES: ReadonlySet<string> = new Set(CALLER_SOURCES);
const MAX_INTEGRATION_CHARS = 256;
const MAX_SUBJECT_CHARS = 64;

/**
 * A caller as one node passes it to another with a relayed request (sealed by the bridge): the node
 * that counts an HTTP+SSE message is not the one the client reached, and could not identify it by
 * the client's address or certificate itself.
 */
export function callerText(caller: Caller): string {
  return JSON.stringify(caller.subject === undefined ? [caller.integration, caller.source] : [caller.integration, caller.source, caller.subject]);
}

/** The caller a relay carries, or undefined when it carries none that reads as one. Never throws. */
export function callerOfText(text: string | undefined): Caller | undefined {
  if (text === undefined || text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return undefined;
  const [integration, source, subject] = value as unknown[];
  if (typeof integration !== 'string' || integration === '' || integration.length > MAX_INTEGRATION_CHARS) return undefined;
  if (typeof source !== 'string' || !SOURCES.has(source)) return undefined;
  if (subject !== undefined && (typeof subject !== 'string' || subject === '' || subject.length > MAX_SUBJECT_CHARS)) return undefined;
  return { integration, source: source as Caller['source'], ...(subject === undefined ? {} : { subject }) };
}
