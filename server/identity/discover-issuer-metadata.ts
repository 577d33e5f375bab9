import { fetchJson, FetchProblem, type FetchJsonOptions } from './fetch-json.js';

/** What the sidecar needs of an authorization server's metadata. */
export interface IssuerMetadata {
  jwksUri: string | undefined;
  introspectionEndpoint: string | undefined;
}

const MAX_METADATA_BYTES = 256 * 1024;

/**
 * Where an issuer's metadata may be, in the order the MCP authorization spec has clients try them:
 * RFC 8414 (the well-known segment inserted before the issuer's path), then OpenID Connect
 * discovery inserted, then appended to the path. An issuer without a path has one of each.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

function httpUrlOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : undefined;
}

/**
 * Reads an issuer's metadata from the first place that has it. A document naming another issuer is
 * refused (RFC 8414 section 3.3): keys published for one issuer must never verify another's tokens.
 * Throws a FetchProblem when no place answers with the issuer's metadata.
 */
export async function discoverIssuerMetadata(issuer: string, options: Pick<FetchJsonOptions, 'timeoutMs' | 'dispatcher'>): Promise<IssuerMetadata> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let answer;
    try {
      answer = await fetchJson(url, { ...options, maxBytes: MAX_METADATA_BYTES });
    } catch (error) {
      problems.push(error instanceof FetchProblem ? error.message : String(error));
      // An unreachable server will not answer at the next well-known place either.
      break;
    }
    if (answer.status !== 200 || typeof answer.json !== 'object' || answer.json === null) {
      problems.push(`HTTP ${answer.status}`);
      continue;
    }
    const document = answer.json as Record<string, unknown>;
    if (document.issuer !== issuer) {
      problems.push('the metadata names another issuer');
      continue;
    }
    return { jwksUri: httpUrlOf(document.jwks_uri), introspectionEndpoint: httpUrlOf(document.introspection_endpoint) };
  }
  throw new FetchProblem(`no metadata for issuer ${issuer} (${problems.join('; ')})`);
}
