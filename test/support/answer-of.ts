/** A JSON-RPC answer as a test reads it. */
export interface Answer {
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message?: string; data?: unknown };
}

/** The answer in a response body: the body itself when JSON, the last `data:` line of an event stream. */
export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return JSON.parse(text) as Answer;
  const last = text.split('\n').filter((line) => line.startsWith('data:')).at(-1);
  if (last === undefined) throw new Error(`no data line in the event stream: ${text}`);
  return JSON.parse(last.slice('data:'.length)) as Answer;
}
