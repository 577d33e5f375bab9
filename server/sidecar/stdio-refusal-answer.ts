import type { ClassifiedMessage } from '../protocol/classified-message.js';
import { stdioRefusalLine, type RefusalContext } from '../protocol/policy-refusal.js';

/**
 * The line (newline included) that answers a refused client line in the server's place: the -32022
 * error for its request, or for a batch an array with one for each of its requests, as a server
 * answers a batch. Undefined when nothing in it awaits an answer.
 */
export function stdioRefusalAnswer(line: string, messages: readonly ClassifiedMessage[], context: RefusalContext): string | undefined {
  const answers: string[] = [];
  for (const message of messages) {
    const answer = stdioRefusalLine(message, context);
    if (answer !== undefined) answers.push(answer);
  }
  if (answers.length === 0) return undefined;
  const batch = line.trimStart().startsWith('[');
  return `${batch ? `[${answers.join(',')}]` : answers[0]}\n`;
}
