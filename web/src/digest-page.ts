/**
 * The print view of the weekly digest (digest.html): the same document the webhooks are sent,
 * fetched from /api/v1/digest behind the dashboard's admin-token gate, written down to be printed.
 */
import { createApiClient } from './api-client.js';
import type { DigestResponse } from './api-types.js';
import { byId, failureLine, loading, replaceChildren } from './dom.js';
import { formatSpan, renderDigest } from './render-digest.js';
import { createTokenGate } from './token-gate.js';

const gate = createTokenGate(() => void load());
const api = createApiClient({ token: gate.token, onUnauthorized: () => gate.show() });
const root = byId('digest');

async function load(): Promise<void> {
  root.dataset.loaded = 'false';
  replaceChildren(root, loading('the digest'));
  try {
    const digest = await api.get<DigestResponse>('/digest');
    renderDigest(root, digest);
    // The title is what a browser offers as the PDF's file name.
    document.title = `mcp-sunset weekly digest ${formatSpan(digest.period)}`;
    root.dataset.loaded = 'true';
  } catch (error) {
    replaceChildren(root, failureLine('The digest', error));
  }
}

byId('digest-print').addEventListener('click', () => window.print());
void load();
