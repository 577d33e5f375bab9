import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { shownSlackText, slackMarkup } from '../alerts/slack-markup.js';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { trafficCell } from '../store/temp-database.js';
import { POLICY_URL, sendPlan } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const DAY = 86_400_000;
/** A channel-wide ping and a masked phishing link, as a caller may write them wherever it chooses a string. */
const HOSTILE = '<!channel> <https://evil.example/login|Re-authenticate here>';

/** An upstream that serves everything: an initialize as the 2025-11-25 revision, any other request with a complete result. */
async function startServingUpstream(): Promise<RawUpstream> {
  return startRawUpstream((_req, res, body) => {
    const { id, method } = JSON.parse(body.toString('utf8')) as { id: number; method: string };
    const result = method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'upstream', version: '1' } } : { tools: [], resultType: 'complete' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
}

/**
 * Callers write markup where they choose a string: a clientInfo name, a `_meta` protocol version, the
 * name a gateway passes on. Through the sidecar, the store and the rules, it reaches the `slack`
 * webhooks as text a chat shows, never as a mention or a link; the `json` webhooks carry it as it was.
 */
describe('what a caller writes reaches a chat as text', () => {
  let upstream: RawUpstream;
  let receiver: WebhookReceiver;
  let service: TestService;
  const keys = new Map<string, string>();
  const bodies = (format: 'json' | 'slack') => receiver.received.filter((r) => r.path.endsWith(`f=${format}`)).map((r) => r.body as Record<string, any>);
  const texts = () => bodies('slack').map((b) => b.text as string);

  async function send(headers: Record<string, string>, message: Record<string, unknown>): Promise<void> {
    const response = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });
    expect(response.status).toBe(200);
    await response.text();
  }

  async function newCaller(token: string, run: () => Promise<void>): Promise<void> {
    const known = async () => new Set(((await service.api('/api/v1/integrations')).body.integrations as { key: string }[]).map((c) => c.key));
    const before = await known();
    await run();
    expect(await service.flush()).toBe(true);
    const added = [...(await known())].filter((k) => !before.has(k));
    expect(added).toHaveLength(1);
    keys.set(token, added[0]!);
  }

  beforeAll(async () => {
    upstream = await startServingUpstream();
    receiver = await startWebhookReceiver();
    service = await startTestService(new URL('/mcp', upstream.origin), {
      identity: { trustedProxies: ['127.0.0.1'] },
      alerts: {
        schedule: '0 0 1 1 *',
        webhooks: [
          { name: 'ops-slack', url: `${receiver.url}?f=slack`, format: 'slack' },
          { name: 'ops-json', url: `${receiver.url}?f=json`, format: 'json' },
        ],
        maxAttempts: 1,
        initialBackoffMs: 10,
        digest: { enabled: false },
      },
    });
    // The installed base, metered since 40 days ago: a caller first served today is new.
    createTallyWriter(service.database().db)({ cells: [trafficCell({ minute: Math.floor(Date.now() / DAY) * DAY - 40 * DAY, integration: 'tok_installedbase', count: 5 })], integrations: [] });
    // A legacy client that names itself with markup, then does legacy work.
    await newCaller('named', async () => {
      const auth = { authorization: 'Bearer hostile-name-token' };
      await send(auth, { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: HOSTILE, version: '1.0.0' } } });
      await send(auth, { method: 'tools/list', params: {} });
    });
    // A modern-shaped request whose `_meta` names a markup "version", which the upstream serves.
    await newCaller('versioned', () => send({ authorization: 'Bearer hostile-version-token', 'mcp-protocol-version': HOSTILE, 'mcp-method': 'tools/list' }, { method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': HOSTILE } } }));
    // A gateway on a trusted address passes on a caller name with markup.
    await newCaller('gateway', () => send({ 'x-mcp-integration': HOSTILE }, { method: 'tools/list', params: {} }));
    expect(keys.get('gateway')).toBe(HOSTILE);
    expect(await trafficTotals(service, 'version', { integration: keys.get('versioned')! })).toEqual({ [HOSTILE]: 1 });
  }, 60_000);
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await upstream?.close();
  });

  test('a new legacy caller\'s clientInfo name is shown in the alert, neither pinging the channel nor linking', async () => {
    const evaluated = await fetch(new URL('/api/v1/alerts/evaluate', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(evaluated.status).toBe(200);
    const named = keys.get('named')!;
    const alert = texts().find((text) => text.startsWith('[FIRING] new-legacy-integration:') && text.includes(named));
    expect(alert).toBeDefined();
    expect(alert).not.toContain('<!channel>');
    expect(alert).not.toMatch(/<https?:\/\/[^>]*>/);
    expect(slackMarkup(alert!)).toEqual([]);
    expect(shownSlackText(alert!)).toMatch(new RegExp(`^\\[FIRING\\] new-legacy-integration: New legacy caller ${named} \\(claims to be "${escapeRegExp(HOSTILE)}"\\): first served legacy work on \\d{4}-\\d\\d-\\d\\d$`));
    // The gateway's name, the alert's own subject, is text too.
    const gateway = texts().find((text) => text.startsWith('[FIRING] new-legacy-integration:') && shownSlackText(text).includes(`New legacy caller ${HOSTILE}:`));
    expect(gateway).toBeDefined();
    expect(slackMarkup(gateway!)).toEqual([]);
    // JSON carries data: the values as the caller sent them, for the receiver to show as it must.
    const json = bodies('json').find((b) => b.rule === 'new-legacy-integration' && b.details.integration === named);
    expect(json).toMatchObject({ details: { claimsToBe: HOSTILE }, summary: expect.stringContaining(`"${HOSTILE}"`) });
  });

  test('a notice names the markup version the caller came by as text, and its policy link still works', async () => {
    const brownoutAt = Math.floor(Date.now() / DAY) * DAY + 10 * DAY + 14 * 3_600_000;
    await sendPlan(service, 'POST', '/api/v1/plans', {
      name: 'Retire Streamable HTTP <v1>',
      scope: { kind: 'transport', value: 'streamable-http' },
      announceDate: new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10),
      retireDate: new Date(Date.now() + 90 * DAY).toISOString().slice(0, 10),
      policyUrl: `${POLICY_URL}?from=chat&lang=en`,
      action: 'deny',
      acknowledgeRefusingModern: true,
      noticeDays: [14],
      brownouts: [{ startsAt: new Date(brownoutAt).toISOString(), endsAt: new Date(brownoutAt + 3_600_000).toISOString(), note: 'first brownout' }],
    });
    receiver.received.length = 0;
    const evaluated = await fetch(new URL('/api/v1/alerts/evaluate', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(evaluated.status).toBe(200);
    const versioned = keys.get('versioned')!;
    const notice = texts().find((text) => text.startsWith('[NOTICE] ') && text.includes(versioned));
    expect(notice).toBeDefined();
    expect(notice).not.toContain('<!channel>');
    expect(notice).not.toMatch(/<https?:\/\/[^>]*>/);
    expect(slackMarkup(notice!)).toEqual([]);
    expect(shownSlackText(notice!)).toContain(`plan "Retire Streamable HTTP <v1>" refuses streamable-http requests in a brownout`);
    expect(shownSlackText(notice!)).toContain(` with ${HOSTILE}.`);
    // The operator's link is a bare URL, which the chat links; `&` is written as Slack reads it.
    expect(notice!.endsWith(` Policy: ${POLICY_URL}?from=chat&amp;lang=en`)).toBe(true);
    // Every notice and alert sent is plain text, the gateway's caller's notice too.
    for (const text of texts()) expect(slackMarkup(text)).toEqual([]);
    expect(texts().some((text) => text.startsWith('[NOTICE] ') && shownSlackText(text).startsWith(`[NOTICE] ${HOSTILE}: in 14 days`))).toBe(true);
    const json = bodies('json').find((b) => b.kind === 'notice' && b.caller.integration === versioned);
    expect(json).toMatchObject({ usage: { versions: [HOSTILE] }, policyUrl: `${POLICY_URL}?from=chat&lang=en` });
  });

  test('the digest names the gateway\'s markup caller as text', async () => {
    receiver.received.length = 0;
    const sent = await fetch(new URL('/api/v1/digest/send', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(sent.status).toBe(200);
    const [digest] = texts();
    expect(digest).toBeDefined();
    expect(digest!.startsWith('*mcp-sunset weekly digest*\n')).toBe(true);
    expect(digest).not.toContain('<!channel>');
    expect(digest).not.toMatch(/<https?:\/\/[^>]*>/);
    expect(slackMarkup(digest!)).toEqual([]);
    const lines = shownSlackText(digest!).split('\n');
    expect(lines.find((line) => line.startsWith('Largest remaining identifiable callers:'))).toContain(`${HOSTILE} 1 request`);
    expect(lines.find((line) => line.startsWith('Plan '))).toContain('Plan "Retire Streamable HTTP <v1>"');
    // The dashboard links are there as the product built them.
    expect(lines.at(-1)).toBe(`Dashboard: ${service.apiUrl.href} · Print view: ${new URL('digest.html', service.apiUrl).href}`);
    const [json] = bodies('json');
    expect(json!.summary.find((line: string) => line.startsWith('Largest remaining'))).toContain(`${HOSTILE} 1 request`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
