/**
 * The message as counted when the server that answered it names the era itself: the era is the
 * server's word and the reason says so, so a declared count is never mistaken for an observed one.
 * Pure.
 */
import { classified, type ClassifiedMessage } from './classified-message.js';
import type { Era } from './vocabulary.js';

/** The eras a server can declare it served: `unknown` is the classifier's, never a declaration. */
export type DeclaredEra = Exclude<Era, 'unknown'>;

export const DECLARED_ERAS: readonly DeclaredEra[] = ['legacy', 'modern'];

export function declareEra(message: ClassifiedMessage, era: DeclaredEra): ClassifiedMessage {
  return classified({ ...message, era, reason: 'declared-by-app' });
}
