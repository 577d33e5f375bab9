import net from 'node:net';

/** A request sent byte for byte: request-target and all. */
export function rawTarget(origin: string | URL, method: string, target: string, headers: string[], body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const head = answer.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = /\r\ncontent-length: (\d+)/i.exec(answer.slice(0, head));
      if (length && answer.length - head - 4 < Number(length[1])) return;
      socket.destroy();
      resolve({ status: Number(answer.slice(9, 12)), text: answer.slice(head + 4) });
    });
    socket.on('error', reject);
    const lines = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, ...headers, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body];
    socket.write(lines.join('\r\n'));
  });
}
