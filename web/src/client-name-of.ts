/** The application's own name (clientName), from its OAuth Client ID Metadata Document, when the API gives it. */
import type { Integration } from './api-types.js';

/** Read defensively: the field is newer than some servers the page may talk to. */
export function clientNameOf(integration: Integration): string | null {
  const name = (integration as { clientName?: unknown }).clientName;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}
