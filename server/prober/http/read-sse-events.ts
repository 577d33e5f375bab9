/**
 * Reads server-sent events from a fetch body with eventsource-parser, byte-capped. Events with
 * empty data (the 2025-11-25 priming event) carry nothing and are skipped.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Calls `onEvent` for each event until it answers true (then the body is cancelled), the stream
 * ends, or `maxBytes` have been read. Answers why it stopped.
 */
export async function readSseEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: SseEvent) => boolean,
  maxBytes: number,
): Promise<'done' | 'ended' | 'too-large'> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let done = false;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      if (done) return;
      const event = message.event ?? 'message';
      if (event === 'message' && message.data.trim() === '') return;
      done = onEvent({ event, data: message.data });
    },
  });
  let read = 0;
  try {
    while (!done) {
      const chunk = await reader.read();
      if (chunk.done) return 'ended';
      read += chunk.value.byteLength;
      if (read > maxBytes) return 'too-large';
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    return 'done';
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
