import cron from 'node-cron';
import { z } from 'zod';
import { identitySchema } from './identity-schema.js';

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:8808')
  .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65_535, 'port must be 0-65535');

const positiveInt = z.coerce.number().int().positive();

const pathPrefix = z
  .string()
  .regex(/^(\/[^?#\s]*)?$/, 'expected a path prefix such as /mcp-public, or empty')
  .transform((value) => value.replace(/\/+$/, ''));

const analysisSchema = z
  .object({
    windowWeeks: positiveInt.default(12).describe('Complete weeks the trend test and slope look back over.'),
    minPoints: positiveInt.default(4).describe('Fewest weekly points before a trend is reported at all.'),
    alpha: z.coerce.number().gt(0).lt(1).default(0.05).describe('Significance level of the one-sided Mann–Kendall test for decrease.'),
    flatSlopePerWeek: z.coerce.number().positive().default(0.001).describe('|Theil–Sen slope| below this, in share per week, counts as flat (0.001 = 0.1 percentage points).'),
    atRiskDays: positiveInt.default(14).describe('A projection missing the retire date by at most this many days is at-risk rather than off-track.'),
  })
  .strict()
  .describe('Thresholds of the trend analysis; see server/analysis/compute-trend.ts.');

const webhookSchema = z
  .object({
    name: z.string().min(1).max(64).describe('The webhook\'s name, recorded with each delivery.'),
    url: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).describe('Where each transition is POSTed. It is never logged or stored (a Slack webhook URL is a secret).'),
    format: z.enum(['json', 'slack']).default('json').describe('`json` sends the alert as JSON; `slack` sends `{ "text" }`, which Slack, Mattermost and Rocket.Chat incoming webhooks accept.'),
  })
  .strict();

/** Whether the runtime's Intl knows an IANA zone; configuration imports no layer, so it asks Intl itself. */
function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const digestSchema = z
  .object({
    enabled: z.boolean().default(true).describe('Whether this process sends it on `schedule`; like the rules, only where `alerts.scheduled` is on. A fleet sends each one once.'),
    schedule: z
      .string()
      .min(1)
      .refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. 0 9 * * 1')
      .default('0 9 * * 1')
      .describe('node-cron expression, read in `timeZone`: Mondays at 09:00 unless told.'),
    timeZone: z.string().min(1).refine(isKnownTimeZone, 'not a time zone this runtime knows, e.g. Europe/Berlin').default('UTC').describe('IANA time zone the schedule is read in.'),
    dashboardUrl: z
      .url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' })
      .optional()
      .describe('The dashboard\'s address as its readers reach it, for the digest\'s links; defaults to http://<dashboard>/. Set it behind a proxy, or when `dashboard` is `0.0.0.0`.'),
    topCallers: positiveInt.max(100).default(10).describe('How many of the largest remaining identifiable callers it names.'),
  })
  .strict()
  .describe('The weekly digest for the people who read the trend rather than the alerts.');

const alertsSchema = z
  .object({
    scheduled: z
      .boolean()
      .default(true)
      .describe(
        'Whether this process evaluates the rules on `schedule`. Processes sharing one store should leave it on in one of them only, or each would announce the same transition. On-demand runs through the API still work.',
      ),
    schedule: z
      .string()
      .min(1)
      .refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. */15 * * * *')
      .default('*/15 * * * *')
      .describe('node-cron expression for evaluating the rules (5 fields, or 6 with seconds; read in UTC); they can also be run on demand through the API.'),
    webhooks: z.array(webhookSchema).default([]).describe('Where transitions are sent; the notices to callers and the weekly digest go to them too.'),
    maxAttempts: positiveInt.default(5).describe('Delivery attempts per transition, with exponential backoff starting at initialBackoffMs.'),
    initialBackoffMs: positiveInt.default(1000).describe('The wait before a delivery\'s first retry; each next wait doubles.'),
    noFlushMinutes: positiveInt.default(5).describe('metering-loss fires when nothing has been flushed for this long.'),
    approachingDays: z.array(positiveInt).default([30, 7]).describe('retire-date-approaching fires this many days before a retire date while the share is above target.'),
    refusalSpikeMinBlocked: positiveInt
      .default(20)
      .describe('refusal-spike fires for a caller with at least this many requests refused by plans in the last complete hour…'),
    refusalSpikeFactor: z.coerce.number().min(1).default(5).describe('…and at least this many times its hourly mean of refusals over the 24 hours before.'),
    digest: digestSchema.default(digestSchema.parse({})),
  })
  .strict()
  .describe('The alert rules\' schedule, webhooks and retries.');

const fleetNodeSchema = z
  .object({
    name: z.string().min(1).max(64).regex(/^[^/\s]+$/, 'no spaces or slashes').describe('The node\'s name in the fleet panel and alerts.'),
    url: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).describe('Its MCP endpoint.'),
  })
  .strict();

const fleetSchema = z
  .object({
    nodes: z
      .array(fleetNodeSchema)
      .default([])
      .refine((nodes) => new Set(nodes.map((n) => n.name)).size === nodes.length, 'node names must be unique')
      .describe('The endpoints to check, `[{ "name", "url" }]`; names are unique.'),
    schedule: z
      .string()
      .min(1)
      .refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. */5 * * * *')
      .default('*/5 * * * *')
      .describe('node-cron expression for the checks; `POST /api/v1/fleet/check` runs one at once.'),
    timeoutMs: positiveInt.default(10_000).describe('Deadline of each probe and of the legacy-acceptance initialize.'),
  })
  .strict()
  .describe('The endpoints of one logical server, checked for a uniform supported set.');

// A declared plan's other fields are validated where plans are known, at start-up, since configuration imports no layer.
const declaredPlanSchema = z
  .looseObject({
    key: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected a slug: lower-case letters, digits and dashes, at most 64, not starting with a dash')
      .describe('The plan\'s stable key: a slug of lower-case letters, digits and dashes, at most 64, unique in the file.'),
  })
  .describe('A plan declared in this file under a stable key. Its other fields are those of POST /api/v1/plans, validated at start-up.');

const declaredPlansSchema = z.array(declaredPlanSchema).superRefine((plans, ctx) => {
  const seen = new Set<string>();
  for (const [index, plan] of plans.entries()) {
    if (seen.has(plan.key)) ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `"${plan.key}" is declared twice` });
    seen.add(plan.key);
  }
});

const hexKey = z
  .string()
  .trim()
  .regex(/^(?:[0-9a-fA-F]{2})+$/, 'expected hex: an even number of 0-9 and a-f')
  .refine((value) => value.length >= 64, 'must be at least 32 bytes (64 hex digits)');

const bridgeSchema = z
  .object({
    enabled: z.boolean().default(false).describe('Answer legacy clients at the edge, in front of a modern-only server.'),
    key: hexKey
      .optional()
      .describe('Seals the HTTP sessions; every node of a fleet needs the same one (`MCP_SUNSET_BRIDGE_KEY`). stdio needs none. Hex, at least 32 bytes; `serve --bridge` refuses to start without it.'),
    previousKeys: z
      .array(
        z
          .object({
            key: hexKey.describe('A key rotated out.'),
            acceptedUntil: z.iso.datetime({ offset: true }).describe('Until when the sessions it sealed are honoured.'),
          })
          .strict(),
      )
      .default([])
      .describe('Keys rotated out: sessions they sealed are still honoured until `acceptedUntil` (an ISO date-time).'),
    sessionTtlMs: positiveInt.default(24 * 3_600_000).describe('How long a bridged session is honoured after its initialize.'),
    inputTimeoutMs: positiveInt.default(10 * 60_000).describe('How long the bridge waits for a client to answer an elicitation, sampling or roots request.'),
    nodeUrl: z
      .url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' })
      .optional()
      .describe(
        'Where the other nodes reach this one (its sidecar\'s origin), to pass it a client\'s answer to an elicitation it sent, and the subscriptions, streams and HTTP+SSE messages of what it holds. Defaults to the address the sidecar listens on; required on a fleet store when listening on `0.0.0.0` or `::`.',
      ),
    revocationRefreshMs: positiveInt.default(5_000).describe('How often each node reads the revoked sessions from the store (and checks its open channels and streams).'),
    revocationMaxStaleMs: positiveInt
      .default(300_000)
      .describe(
        'How long a node whose reads of the revoked sessions fail goes on with the last set it read. Past it (and before the first read) it honours no bridged session, rather than a revoked one.',
      ),
  })
  .strict()
  .describe('The legacy bridge in front of a modern-only upstream (`serve --bridge`, `wrap --bridge`).');

const otlpUrl = z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' });

const otelSchema = z
  .object({
    enabled: z.boolean().optional().describe('On or off; unset, it is on when an endpoint is known.'),
    endpoint: otlpUrl.optional().describe('The collector\'s OTLP/HTTP base URL; metrics go to `<endpoint>/v1/metrics`.'),
    metricsEndpoint: otlpUrl.optional().describe('The full URL metrics go to, used as given (wins over `endpoint`).'),
    protocol: z
      .enum(['http/protobuf', 'http/json'], { message: 'expected http/protobuf or http/json (gRPC is not offered)' })
      .default('http/protobuf')
      .describe('How the metrics are encoded; gRPC is not offered.'),
    headers: z.record(z.string().min(1), z.string()).default({}).describe('Sent with every export, e.g. an API key the collector asks for.'),
    exportIntervalMs: positiveInt.default(60_000).describe('How often the counts are exported.'),
    exportTimeoutMs: positiveInt.default(30_000).describe('One export\'s deadline; a collector slower than this is reported down.'),
    resourceAttributes: z
      .record(z.string().min(1), z.string())
      .default({})
      .describe('Added to the resource beside service.name, service.instance.id (the node) and service.version.'),
    maxCallers: z.coerce
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(50)
      .describe('Identifiable callers named in `mcp_sunset.caller`, the first to be counted; later ones are `other`.'),
    maxSeries: positiveInt
      .max(100_000)
      .default(5_000)
      .describe('Distinct series the export holds; past it, counts go to one overflow series and are counted as folded.'),
  })
  .strict()
  .describe(
    'Metrics out over OTLP/HTTP to an OpenTelemetry collector, in the MCP semantic conventions\' names. The standard OTEL_* variables fill these (see load-config.ts); an endpoint alone turns it on.',
  );

/**
 * An admin token as a client can send it: in `Authorization: Bearer <token>` a space, a tab or a
 * control character cannot be part of the token, so a token holding one could never authenticate.
 */
const adminTokenText = z
  .string()
  .min(16, 'must be at least 16 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces: it is sent in an Authorization header, where a space ends it');

export const configSchema = z
  .object({
    upstream: z
      .url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' })
      .optional()
      .describe('The MCP server the sidecar fronts, `http(s)://host:port[/prefix]`. Absent: `serve` runs the bundled demo server instead.'),
    listen: hostPort.default('127.0.0.1:8808').describe('Where the sidecar proxy listens.'),
    dashboard: hostPort.default('127.0.0.1:8809').describe('Where the API, the dashboard, /healthz and /metrics listen.'),
    db: z.string().min(1).default('.data/mcp-sunset.db').describe('The SQLite file, or a `postgres://` (or `postgresql://`) URL shared by a fleet.'),
    node: z.string().min(1).max(128).describe('This sidecar\'s name in the fleet; defaults to the host name.'),
    publicPrefix: pathPrefix.optional().describe('Path prefix clients use where the upstream URL has its own path; defaults to the same.'),
    maxBodyBytes: positiveInt
      .default(4 * 1024 * 1024)
      .describe(
        'Largest request body read to classify it; a bigger one is forwarded unread and, since it cannot be shown modern, refused by a plan that refuses the legacy era. The default is the official SDK servers\' own limit, so a body the sidecar cannot read is one they refuse too (413).',
      ),
    maxAnswerBytes: positiveInt.default(1024 * 1024).describe('Largest JSON answer, or single SSE event, read to find an outcome.'),
    httpSseMessagePaths: z
      .array(z.string().startsWith('/'))
      .default(['/messages'])
      .describe('Paths treated as HTTP+SSE message endpoints before an `endpoint` event names them (after a sidecar restart, say).'),
    nonMcpPaths: z
      .array(z.string().startsWith('/').max(1024))
      .max(256)
      .default([])
      .describe(
        'Paths under the public prefix that serve no MCP (an OAuth `/token` or `/register` endpoint beside `/`, say): a request at one of them or below it is passed on untouched and counted apart, never judged, so a cut does not refuse it. `/.well-known/` is always such a path.',
      ),
    httpSseStreamPaths: z
      .array(z.string().startsWith('/'))
      .default(['/sse'])
      .describe(
        'Paths where a GET opens an HTTP+SSE stream before an `endpoint` event shows it (more are learned); a GET there is judged and counted as an HTTP+SSE opening whatever its `Accept` or session header.',
      ),
    flushIntervalMs: positiveInt.default(1000).describe('How often counts are written.'),
    flushMaxAttempts: positiveInt
      .default(10)
      .describe('Failed flush attempts before a batch of counts leaves memory for the spool (or, past its bound, is dropped and counted).'),
    spoolMaxBytes: positiveInt
      .default(64 * 1024 * 1024)
      .describe('Most bytes the spool file may hold while the store is unreachable; past it, counts are dropped and counted. The final flush at shutdown may pass it.'),
    shutdownGraceMs: z.coerce
      .number()
      .int()
      .nonnegative()
      .default(10_000)
      .describe('At shutdown (SIGTERM/SIGINT), how long requests already passed on may take to finish before they are cut and counted as cancelled.'),
    spoolPath: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Where counts the store could not take in time are kept until it can (across restarts); defaults to `<db>.spool`, and for Postgres to `mcp-sunset-<node>.spool` in the working directory. The first flush the store accepts, or the next start, writes them back.',
      ),
    upstreamConnectTimeoutMs: positiveInt.default(10_000).describe('Connect timeout to the upstream; there is no response timeout, because streams are long-lived.'),
    retention: z
      .object({
        minuteDays: positiveInt.default(14).describe('Days minute rows are kept.'),
        hourDays: positiveInt.default(400).describe('Days hour rows are kept.'),
        peopleDays: positiveInt.default(400).describe('Days the people behind each caller are kept (one row per person, caller and day, the person a keyed digest).'),
      })
      .default({ minuteDays: 14, hourDays: 400, peopleDays: 400 })
      .describe('How long traffic rows and people are kept; day rows are kept forever.'),
    caps: z
      .object({
        sessions: positiveInt.default(10_000).describe('Entries the session table, and the HTTP+SSE channel table, may each hold; the least recently used goes first.'),
        integrations: positiveInt.default(5_000).describe('Distinct callers counted under their own name at once, in each of two pools (callers a trusted mechanism named, and bearer-token fingerprints); past it the lightest are counted as `other`. Weighed per minute: a caller unseen for a minute gives its place back, a heavier one takes the lightest one\'s place, and `anonymous` is always named.'),
        methods: positiveInt.default(256).describe('Distinct unknown methods counted under their own name at once; past it the lightest are counted as `other`, weighed per minute as callers are. The methods the MCP revisions define are always named and take no room.'),
        versions: positiveInt.default(64).describe('Distinct unknown versions counted under their own name at once; past it the lightest are counted as `other`, weighed per minute as callers are. Published protocol revisions are always named and take no room.'),
        cells: positiveInt.default(50_000).describe('Distinct cells a flush window holds; past it, the caller and unknown methods and versions are counted as `other` (known ones stay).'),
        people: positiveInt.default(100_000).describe('Distinct people (a caller, a UTC day, a path and a person) a flush window holds; past it, newcomers are not counted as people until the next window.'),
        claims: positiveInt.default(256).describe('Distinct claimed clients (clientInfo, or a User-Agent\'s product, with its version) describing the unknown base under their own name at once; past it the lightest are counted as `other`, weighed per minute as callers are.'),
        pendingAnswers: positiveInt
          .default(50_000)
          .describe('Entries the table of requests waiting for an answer on another exchange may hold; one evicted from the full table is counted as `no-response`.'),
        sessionsBytes: positiveInt.default(16 * 1024 * 1024).describe('Bytes the session table, and the HTTP+SSE channel table, may each hold.'),
        pendingAnswersBytes: positiveInt
          .default(64 * 1024 * 1024)
          .describe(
            'Bytes the table of requests waiting for answers, and each table of requests in flight, may hold (under `wrap`, each of the stdio meter\'s two tables: requests awaiting their answer, and server requests).',
          ),
      })
      .default({ sessions: 10_000, integrations: 5_000, methods: 256, versions: 64, cells: 50_000, people: 100_000, claims: 256, pendingAnswers: 50_000, sessionsBytes: 16 * 1024 * 1024, pendingAnswersBytes: 64 * 1024 * 1024 })
      .describe('Memory bounds, in entries and in bytes.'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level; logs go to stderr as JSON.'),
    requestTimeoutMs: positiveInt
      .default(30_000)
      .describe('A request, body included, must arrive within this, or it gets `408` and its connection is closed; answers and streams are never bounded by it.'),
    keepAliveTimeoutMs: positiveInt
      .default(65_000)
      .describe('An idle keep-alive connection, with no request in flight, is closed after this (longer than the 60 s idle timeout of common load balancers).'),
    allowedHosts: z
      .array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s/\[\]]+)(:\d{1,5})?$/, 'expected a host name, optionally with :port'))
      .default([])
      .describe(
        'Host names (`name`, any port, or `name:port`) the API and dashboard also answer to, e.g. behind a reverse proxy, or the dashboard\'s DNS name when `dashboard` is `0.0.0.0`.',
      ),
    adminToken: adminTokenText
      .optional()
      .describe('Bearer token the API and dashboard require (printable ASCII without spaces); mandatory when the dashboard is not on loopback (or adminTokens).'),
    adminTokens: z
      .array(
        z
          .object({
            name: z
              .string()
              .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'expected 1 to 64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit')
              .describe('The name the audit trail records changes under, as `token:<name>`.'),
            token: adminTokenText.describe('The bearer token (printable ASCII without spaces).'),
          })
          .strict(),
      )
      .max(100)
      .default([])
      .describe(
        'Named bearer tokens, each accepted like adminToken: the audit trail records a change made with one under its name, so each person or pipeline can have its own. A name or a token given twice is refused at start.',
      ),
    analysis: analysisSchema.default(analysisSchema.parse({})),
    alerts: alertsSchema.default(alertsSchema.parse({})),
    fleet: fleetSchema.default(fleetSchema.parse({})),
    identity: identitySchema.default(identitySchema.parse({})),
    enforcement: z
      .object({
        supportedVersions: z
          .array(z.string().min(1).max(64))
          .min(1)
          .optional()
          .describe(
            'The protocol versions the upstream serves, named in every refusal as those still supported (less what a plan retires). Absent: the versions it answered under in the last 30 days.',
          ),
        discoverEveryMs: z
          .number()
          .int()
          .min(0)
          .default(600_000)
          .describe('How often the upstream is asked for its versions (its own `server/discover`) when supportedVersions is not configured; also at start. 0 never asks.'),
      })
      .strict()
      .default({ discoverEveryMs: 600_000 })
      .describe('The versions refusals name as still served.'),
    bridge: bridgeSchema.default(bridgeSchema.parse({})),
    otel: otelSchema.default(otelSchema.parse({})),
    plans: declaredPlansSchema
      .optional()
      .describe(
        'Retirement plans kept in version control: synced into the store at start, read-only through the API. Absent, the declared plans stay as stored: a `wrap` started without this file must not archive them.',
      ),
    tls: z
      .object({
        certFile: z.string().min(1).describe('The certificate the sidecar\'s listener presents, a PEM file.'),
        keyFile: z.string().min(1).describe('Its private key, a PEM file.'),
        caFile: z.string().min(1).optional().describe('The CA certificates client certificates are verified against, a PEM file.'),
        requestClientCert: z
          .boolean()
          .default(false)
          .describe('Ask each client for a certificate: a verified one identifies the caller (`mtls`); an unverified or missing one names nobody and is still served.'),
      })
      .strict()
      .optional()
      .describe('TLS for the sidecar\'s listener; with requestClientCert the client certificate subject identifies the caller.'),
  })
  .strict()
  .superRefine((config, ctx) => {
    const host = config.dashboard.slice(0, config.dashboard.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1');
    if (!isLoopback(host) && config.adminToken === undefined && config.adminTokens.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['adminToken'], message: `required when the dashboard listens on ${host}, which is not loopback (or adminTokens)` });
    }
    const names = new Set<string>();
    const tokens = new Set(config.adminToken === undefined ? [] : [config.adminToken]);
    config.adminTokens.forEach((entry, index) => {
      if (names.has(entry.name)) ctx.addIssue({ code: 'custom', path: ['adminTokens', index, 'name'], message: `"${entry.name}" is named twice` });
      if (tokens.has(entry.token)) ctx.addIssue({ code: 'custom', path: ['adminTokens', index, 'token'], message: 'the same token twice would make its changes unattributable' });
      names.add(entry.name);
      tokens.add(entry.token);
    });
  })
  .describe('Every setting, from file, environment and flags, validated once at start-up.');

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
