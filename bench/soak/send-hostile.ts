import { request, type Agent } from 'node:http';
import { SOAK_ID_HEADER } from './create-recording-upstream.js';
import type { HostileRequest } from './hostile-request.js';

export type SendOutcome = { kind: 'answered'; status: number } | { kind: 'reset'; error: string } | { kind: 'timeout' };

const TIMEOUT_MS = 15_000;

/** Sends one hostile request as the client would put it on the wire and waits for the answer (or the reset). */
export function sendHostile(target: URL, agent: Agent, id: string, hostile: HostileRequest): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    // Said outright: for GET, DELETE, OPTIONS … Node would otherwise send a length-less body with no framing at all.
    const framing = hostile.delivery === 'chunked' ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(hostile.body.length) };
    const req = request(
      { host: target.hostname, port: target.port, method: hostile.method, path: hostile.path, agent, headers: { ...hostile.headers, ...framing, [SOAK_ID_HEADER]: id } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => settle({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) => settle({ kind: 'reset', error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      settle({ kind: 'timeout' });
    }, TIMEOUT_MS);
    req.on('error', (error) => settle({ kind: 'reset', error: error.message }));
    const { body } = hostile;
    if (hostile.delivery === 'whole') {
      req.end(body);
    } else if (hostile.delivery === 'chunked') {
      const cut = Math.floor(body.length / 2);
      req.write(body.subarray(0, cut));
      req.end(body.subarray(cut));
    } else {
      // Half the promised bytes, then the client goes away.
      req.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => req.destroy(), 5));
    }
  });
}
