/** What the bench upstream answers: the smallest realistic result, as JSON or as an SSE stream. */

/** The result of request `id`; with `textBytes`, its text is that long (a 4 KB or 64 KB answer). */
export function resultMessage(id: unknown, textBytes = 0): string {
  const text = textBytes > 0 ? 'x'.repeat(textBytes) : 'ok';
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], resultType: 'complete' } });
}

export function progressMessage(id: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2 } });
}

/** The two SSE events of a streamed answer, sent as separate writes the way a server emits them. */
export function sseAnswerEvents(id: unknown, textBytes = 0): [progress: string, result: string] {
  return [`event: message\ndata: ${progressMessage(id)}\n\n`, `event: message\ndata: ${resultMessage(id, textBytes)}\n\n`];
}
