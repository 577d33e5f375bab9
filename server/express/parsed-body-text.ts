/** The text of a body a parser in front already read (`req.body`): JSON re-serialised, which classifies the same. */
export function parsedBodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (typeof body === 'object' && body !== null) return JSON.stringify(body);
  return undefined;
}
