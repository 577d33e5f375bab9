/**
 * `tools/list` in the chosen era, page by page, under the configured caps.
 */
import { collectTools, type ToolListing } from './collect-tools.js';
import type { EraChannel, MessageShape } from '../attempt/era-channel.js';
import { sendRequest, type AttemptContext } from '../attempt/probe-attempt.js';
import { buildToolsListRequest } from '../wire/probe-messages.js';
import { readToolsPage } from './read-tools-page.js';

export const NO_TOOLS: ToolListing = { ok: true, tools: [], pages: 0, truncated: null };

export function listPeerTools(channel: EraChannel, ctx: AttemptContext, shape: MessageShape): Promise<ToolListing> {
  const { options } = ctx;
  const era = shape.era === 'modern' ? { kind: 'modern' as const, version: shape.version, clientInfo: options.clientInfo } : { kind: 'legacy' as const };
  return collectTools(async (cursor) => {
    const id = ctx.nextId();
    const observation = await sendRequest(ctx, channel, buildToolsListRequest(id, cursor, era), shape, options.probeTimeoutMs);
    return readToolsPage(observation, id, options.now());
  }, options.toolPages);
}
