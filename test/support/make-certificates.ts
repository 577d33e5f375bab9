import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface Certificates {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

/**
 * A throwaway CA with a server certificate for 127.0.0.1 (and for `serverNames`, host names a test
 * resolves to it itself) and a client certificate named `clientName`, made by openssl.
 */
export function makeCertificates(dir: string, clientName: string, serverNames: readonly string[] = []): Certificates {
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=test-ca', '-keyout', path('ca.key'), '-out', path('ca.pem'));
  const issue = (name: string, subject: string, extensions: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', path(`${name}.key`), '-out', path(`${name}.csr`));
    const ext = path(`${name}.ext`);
    execFileSync('sh', ['-c', `printf '%s\\n' "${extensions}" > "${ext}"`]);
    openssl('x509', '-req', '-in', path(`${name}.csr`), '-CA', path('ca.pem'), '-CAkey', path('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', ext, '-out', path(`${name}.pem`));
  };
  issue('server', '/CN=127.0.0.1', `subjectAltName=${['IP:127.0.0.1', ...serverNames.map((name) => `DNS:${name}`)].join(',')}`);
  issue('client', `/CN=${clientName}`, 'extendedKeyUsage=clientAuth');
  return {
    caFile: path('ca.pem'),
    serverCertFile: path('server.pem'),
    serverKeyFile: path('server.key'),
    clientCertFile: path('client.pem'),
    clientKeyFile: path('client.key'),
  };
}
