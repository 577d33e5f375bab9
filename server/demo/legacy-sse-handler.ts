import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { McpServer } from '@modelcontextprotocol/server';

export type LegacySseHandler = {
  /** `GET <streamPath>`: opens the stream; its first event names `<messagesPath>?sessionId=…`. */
  openStream(res: ServerResponse): Promise<void>;
  /** `POST <messagesPath>?sessionId=…`: one client message for that stream. */
  postMessage(req: IncomingMessage, res: ServerResponse, sessionId: string | null): Promise<void>;
  close(): Promise<void>;
};

/**
 * The deprecated HTTP+SSE transport (2024-11-05) for old clients. The v2 SDK never serves it, so
 * this mounts the v1 SDK's `SSEServerTransport` in front of a v2 server instance, the pattern the
 * v2 docs give for legacy SSE clients (`docs/serving/legacy-clients.md`).
 */
export function createLegacySseHandler(buildServer: () => McpServer, messagesPath: string, onError?: (error: Error) => void): LegacySseHandler {
  const sessions = new Map<string, SSEServerTransport>();
  return {
    async openStream(res) {
      const transport = new SSEServerTransport(messagesPath, res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      try {
        await buildServer().connect(transport);
      } catch (error) {
        sessions.delete(transport.sessionId);
        onError?.(error as Error);
        if (!res.headersSent) res.writeHead(500).end('Error establishing SSE stream');
      }
    },
    async postMessage(req, res, sessionId) {
      const transport = sessionId === null ? undefined : sessions.get(sessionId);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
        return;
      }
      try {
        // No parsed body: the transport reads and size-limits the raw stream itself.
        await transport.handlePostMessage(req, res);
      } catch (error) {
        onError?.(error as Error);
        if (!res.headersSent) res.writeHead(500).end('Error handling message');
      }
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
    },
  };
}
