import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header lines as received, name as sent. */
  headers: [string, string][];
  /** The body, de-chunked when the answer was chunked. */
  body: Buffer;
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** True when `bytes` hold a whole answer framed by Content-Length or chunked coding. */
function isComplete(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length !== null) return bytes.length - headEnd - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) return bytes.subarray(bytes.length - 5).toString('latin1') === '0\r\n\r\n';
  return false;
}

/**
 * Writes `bytes` on a fresh connection to `origin`, exactly as given (nothing normalises them),
 * and reads the answer until it is complete, the server ends the connection (the request asks it
 * to) or `timeoutMs` passes: an answer still streaming then is cut off and returned as far as it came.
 */
export function rawExchange(origin: string | URL, bytes: Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete answer ends the exchange even when the server keeps the connection open.
      if (isComplete(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      // A server may reset the connection after answering (an unread body); the answer stands.
      if (chunks.length === 0) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const headEnd = all.indexOf('\r\n\r\n');
      if (headEnd < 0) return resolve({ status: 0, headers: [], body: all });
      const [statusLine, ...lines] = all.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers = lines.map((line): [string, string] => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).trim()];
      });
      const rest = all.subarray(headEnd + 4);
      const isChunked = headers.some(([name, value]) => name.toLowerCase() === 'transfer-encoding' && value.toLowerCase().includes('chunked'));
      resolve({ status: Number(statusLine!.slice(9, 12)), headers, body: isChunked ? dechunk(rest) : rest });
    });
    socket.write(bytes);
  });
}
