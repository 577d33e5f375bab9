import cron from 'node-cron';
import { z } from 'zod';

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:8808')
  .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65_535, 'port must be 0-65535');

const positiveInt = z.coerce.number().int().positive();

const pathPrefix = z
  .string()
  .regex(/^(\/[^?#\s]*)?$/, 'expected a path prefix such as /mcp-public, or empty')
  .transform((value) => value.replace(/\/+$/, ''));

/** Thresholds of the trend analysis; see server/analysis/compute-trend.ts. */
const analysisSchema = z
  .object({
    /** Complete weeks the trend test and slope look back over. */
    windowWeeks: positiveInt.default(12),
    /** Fewest weekly points before a trend is reported at all. */
    minPoints: positiveInt.default(4),
    /** Significance level of the one-sided Mann–Kendall test for decrease. */
    alpha: z.coerce.number().gt(0).lt(1).default(0.05),
    /** |Theil–Sen slope| below this, in share per week, counts as flat (0.001 = 0.1 percentage points). */
    flatSlopePerWeek: z.coerce.number().positive().default(0.001),
    /** A projection missing the retire date by at most this many days is at-risk rather than off-track. */
    atRiskDays: positiveInt.default(14),
  })
  .strict();

const webhookSchema = z
  .object({
    name: z.string().min(1).max(64),
    url: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }),
    format: z.enum(['json', 'slack']).default('json'),
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

/** The weekly digest for the people who read the trend rather than the alerts. */
const digestSchema = z
  .object({
    /** Whether this process sends it on `schedule`; like the rules, only where `alerts.scheduled` is on. A fleet sends each one once. */
    enabled: z.boolean().default(true),
    /** node-cron expression, read in `timeZone`: Mondays at 09:00 unless told. */
    schedule: z.string().min(1).refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. 0 9 * * 1').default('0 9 * * 1'),
    /** IANA time zone the schedule is read in. */
    timeZone: z.string().min(1).refine(isKnownTimeZone, 'not a time zone this runtime knows, e.g. Europe/Berlin').default('UTC'),
    /** The dashboard's address as its readers reach it, for the digest's links; defaults to http://<dashboard>/. */
    dashboardUrl: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).optional(),
    /** How many of the largest remaining identifiable callers it names. */
    topCallers: positiveInt.max(100).default(10),
  })
  .strict();

const alertsSchema = z
  .object({
    /**
     * Whether this process evaluates the rules on `schedule`. Processes sharing one store should leave it on in
     * one of them only, or each would announce the same transition. On-demand runs through the API still work.
     */
    scheduled: z.boolean().default(true),
    /** node-cron expression for evaluating the rules; they can also be run on demand through the API. */
    schedule: z.string().min(1).refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. */15 * * * *').default('*/15 * * * *'),
    webhooks: z.array(webhookSchema).default([]),
    /** Delivery attempts per transition, with exponential backoff starting at initialBackoffMs. */
    maxAttempts: positiveInt.default(5),
    initialBackoffMs: positiveInt.default(1000),
    /** metering-loss fires when nothing has been flushed for this long. */
    noFlushMinutes: positiveInt.default(5),
    /** retire-date-approaching fires this many days before a retire date while the share is above target. */
    approachingDays: z.array(positiveInt).default([30, 7]),
    /** refusal-spike fires for a caller with at least this many requests refused by plans in the last complete hour… */
    refusalSpikeMinBlocked: positiveInt.default(20),
    /** …and at least this many times its hourly mean of refusals over the 24 hours before. */
    refusalSpikeFactor: z.coerce.number().min(1).default(5),
    digest: digestSchema.default(digestSchema.parse({})),
  })
  .strict();

const fleetNodeSchema = z
  .object({
    /** The node's name in the fleet panel and alerts. */
    name: z.string().min(1).max(64).regex(/^[^/\s]+$/, 'no spaces or slashes'),
    /** Its MCP endpoint. */
    url: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }),
  })
  .strict();

/** The endpoints of one logical server, checked for a uniform supported set. */
const fleetSchema = z
  .object({
    nodes: z.array(fleetNodeSchema).default([]).refine((nodes) => new Set(nodes.map((n) => n.name)).size === nodes.length, 'node names must be unique'),
    schedule: z.string().min(1).refine((expression) => cron.validate(expression), 'not a valid cron expression, e.g. */5 * * * *').default('*/5 * * * *'),
    /** Deadline of each probe and of the legacy-acceptance initialize. */
    timeoutMs: positiveInt.default(10_000),
  })
  .strict();

export const IDENTITY_MECHANISMS = ['gateway-header', 'static-map', 'bearer', 'mtls'] as const;

const identitySchema = z
  .object({
    /** Trusted mechanisms, tried in this order; a request none of them identifies is anonymous. */
    order: z.array(z.enum(IDENTITY_MECHANISMS)).min(1).default(['gateway-header', 'static-map', 'bearer', 'mtls']),
    /** Header a gateway sets to name the caller; honoured only from trustedProxies. */
    gatewayHeader: z.string().min(1).toLowerCase().default('x-mcp-integration'),
    /** Addresses or CIDRs of the gateways allowed to set gatewayHeader (proxy-addr syntax). */
    trustedProxies: z.array(z.string().min(1)).default([]),
    /** Header carrying an API key, for the static map. */
    apiKeyHeader: z.string().min(1).toLowerCase().default('x-api-key'),
    /** API key value, or a tok_… fingerprint, → integration name. */
    staticMap: z.record(z.string().min(1), z.string().min(1).max(128)).default({}),
  })
  .strict();

/**
 * A plan declared in this file under a stable key. Its other fields are those of POST /api/v1/plans;
 * they are validated where plans are known, at start-up, since configuration imports no layer.
 */
const declaredPlanSchema = z.looseObject({
  key: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected a slug: lower-case letters, digits and dashes, at most 64, not starting with a dash'),
});

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

/** The legacy bridge in front of a modern-only upstream (`serve --bridge`, `wrap --bridge`). */
const bridgeSchema = z
  .object({
    /** Answer legacy clients at the edge, in front of a modern-only server. */
    enabled: z.boolean().default(false),
    /** Seals the HTTP sessions; every node of a fleet needs the same one (`MCP_SUNSET_BRIDGE_KEY`). stdio needs none. */
    key: hexKey.optional(),
    /** Keys rotated out: sessions they sealed are still honoured until `acceptedUntil` (an ISO date-time). */
    previousKeys: z.array(z.object({ key: hexKey, acceptedUntil: z.iso.datetime({ offset: true }) }).strict()).default([]),
    /** How long a bridged session is honoured after its initialize. */
    sessionTtlMs: positiveInt.default(24 * 3_600_000),
    /** How long the bridge waits for a client to answer an elicitation, sampling or roots request. */
    inputTimeoutMs: positiveInt.default(10 * 60_000),
    /**
     * Where the other nodes reach this one (its sidecar's origin), to pass it a client's answer to an
     * elicitation it sent. Defaults to the address the sidecar listens on.
     */
    nodeUrl: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).optional(),
    /** How often each node reads the revoked sessions from the store. */
    revocationRefreshMs: positiveInt.default(5_000),
    /**
     * How long a node whose reads of the revoked sessions fail goes on with the last set it read.
     * Past it (and before the first read) it honours no bridged session, rather than a revoked one.
     */
    revocationMaxStaleMs: positiveInt.default(300_000),
  })
  .strict();

const otlpUrl = z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' });

/**
 * Metrics out over OTLP/HTTP to an OpenTelemetry collector, in the MCP semantic conventions' names.
 * The standard OTEL_* variables fill these (see load-config.ts); an endpoint alone turns it on.
 */
const otelSchema = z
  .object({
    /** On or off; unset, it is on when an endpoint is known. */
    enabled: z.boolean().optional(),
    /** The collector's OTLP/HTTP base URL; metrics go to `<endpoint>/v1/metrics`. */
    endpoint: otlpUrl.optional(),
    /** The full URL metrics go to, used as given (wins over `endpoint`). */
    metricsEndpoint: otlpUrl.optional(),
    protocol: z.enum(['http/protobuf', 'http/json'], { message: 'expected http/protobuf or http/json (gRPC is not offered)' }).default('http/protobuf'),
    /** Sent with every export, e.g. an API key the collector asks for. */
    headers: z.record(z.string().min(1), z.string()).default({}),
    exportIntervalMs: positiveInt.default(60_000),
    /** One export's deadline; a collector slower than this is reported down. */
    exportTimeoutMs: positiveInt.default(30_000),
    /** Added to the resource beside service.name, service.instance.id (the node) and service.version. */
    resourceAttributes: z.record(z.string().min(1), z.string()).default({}),
    /** Identifiable callers named in `mcp_sunset.caller`, the first to be counted; later ones are `other`. */
    maxCallers: z.coerce.number().int().min(0).max(1000).default(50),
    /** Distinct series the export holds; past it, counts go to one overflow series and are counted as folded. */
    maxSeries: positiveInt.max(100_000).default(5_000),
  })
  .strict();

/** Every setting, from file, environment and flags, validated once at start-up. */
export const configSchema = z
  .object({
    /** The MCP server the sidecar fronts. Absent: `serve` runs the bundled demo server instead. */
    upstream: z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' }).optional(),
    /** Where the sidecar proxy listens. */
    listen: hostPort.default('127.0.0.1:8808'),
    /** Where the API, /healthz and /metrics listen. */
    dashboard: hostPort.default('127.0.0.1:8809'),
    db: z.string().min(1).default('.data/mcp-sunset.db'),
    /** This sidecar's name in the fleet; defaults to the host name. */
    node: z.string().min(1).max(128),
    /** Path prefix clients use where the upstream URL has its own path; defaults to the same. */
    publicPrefix: pathPrefix.optional(),
    /**
     * Largest request body read to classify it; bigger ones are forwarded unread and judged on their
     * headers. The default is the official SDK servers' own limit, so a body the sidecar cannot read
     * is one they refuse too.
     */
    maxBodyBytes: positiveInt.default(4 * 1024 * 1024),
    /** Largest JSON answer, or single SSE event, read to find an outcome. */
    maxAnswerBytes: positiveInt.default(1024 * 1024),
    /** Paths treated as HTTP+SSE message endpoints before an `endpoint` event names them. */
    httpSseMessagePaths: z.array(z.string().startsWith('/')).default(['/messages']),
    /** Paths where a GET opens an HTTP+SSE stream before an `endpoint` event shows it (more are learned). */
    httpSseStreamPaths: z.array(z.string().startsWith('/')).default(['/sse']),
    flushIntervalMs: positiveInt.default(1000),
    /** Failed flush attempts before a batch of counts leaves memory for the spool (or, past its bound, is dropped and counted). */
    flushMaxAttempts: positiveInt.default(10),
    /** Most bytes the spool file may hold while the store is unreachable; past it, counts are dropped and counted. */
    spoolMaxBytes: positiveInt.default(64 * 1024 * 1024),
    /** At shutdown, how long requests already passed on may take to finish before they are cut and counted as cancelled. */
    shutdownGraceMs: z.coerce.number().int().nonnegative().default(10_000),
    /** Where counts the store could not take in time are kept until it can (across restarts); defaults to `<db>.spool`. */
    spoolPath: z.string().min(1).optional(),
    upstreamConnectTimeoutMs: positiveInt.default(10_000),
    retention: z
      .object({ minuteDays: positiveInt.default(14), hourDays: positiveInt.default(400) })
      .default({ minuteDays: 14, hourDays: 400 }),
    caps: z
      .object({
        sessions: positiveInt.default(10_000),
        integrations: positiveInt.default(5_000),
        methods: positiveInt.default(256),
        versions: positiveInt.default(64),
        cells: positiveInt.default(50_000),
        pendingAnswers: positiveInt.default(50_000),
        /** Bytes the session table, and the HTTP+SSE channel table, may each hold. */
        sessionsBytes: positiveInt.default(16 * 1024 * 1024),
        /** Bytes the table of requests waiting for answers, and each table of requests in flight, may hold. */
        pendingAnswersBytes: positiveInt.default(64 * 1024 * 1024),
      })
      .default({ sessions: 10_000, integrations: 5_000, methods: 256, versions: 64, cells: 50_000, pendingAnswers: 50_000, sessionsBytes: 16 * 1024 * 1024, pendingAnswersBytes: 64 * 1024 * 1024 }),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** A request, body included, must arrive within this; answers and streams are never bounded by it. */
    requestTimeoutMs: positiveInt.default(30_000),
    /** An idle keep-alive connection, with no request in flight, is closed after this. */
    keepAliveTimeoutMs: positiveInt.default(65_000),
    /** Host names (`name` or `name:port`) the API and dashboard also answer to, e.g. behind a reverse proxy. */
    allowedHosts: z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s/\[\]]+)(:\d{1,5})?$/, 'expected a host name, optionally with :port')).default([]),
    /** Bearer token the API and dashboard require; mandatory when the dashboard is not on loopback (or adminTokens). */
    adminToken: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Named bearer tokens, each accepted like adminToken: the audit trail records a change made with
     * one under its name, so each person or pipeline can have its own.
     */
    adminTokens: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'expected 1 to 64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit'),
            token: z.string().min(16, 'must be at least 16 characters'),
          })
          .strict(),
      )
      .max(100)
      .default([]),
    analysis: analysisSchema.default(analysisSchema.parse({})),
    alerts: alertsSchema.default(alertsSchema.parse({})),
    fleet: fleetSchema.default(fleetSchema.parse({})),
    identity: identitySchema.default(identitySchema.parse({})),
    enforcement: z
      .object({
        /**
         * The protocol versions the upstream serves, named in every refusal as those still supported (less
         * what a plan retires). Absent: the versions it answered under in the last 30 days.
         */
        supportedVersions: z.array(z.string().min(1).max(64)).min(1).optional(),
        /**
         * How often the upstream is asked for its versions (its own `server/discover`) when
         * supportedVersions is not configured; also at start. 0 never asks.
         */
        discoverEveryMs: z.number().int().min(0).default(600_000),
      })
      .strict()
      .default({ discoverEveryMs: 600_000 }),
    bridge: bridgeSchema.default(bridgeSchema.parse({})),
    otel: otelSchema.default(otelSchema.parse({})),
    /**
     * Retirement plans kept in version control: synced into the store at start, read-only through the API.
     * Absent, the declared plans stay as stored: a `wrap` started without this file must not archive them.
     */
    plans: declaredPlansSchema.optional(),
    /** TLS for the sidecar's listener; with requestClientCert the client certificate subject identifies the caller. */
    tls: z
      .object({
        certFile: z.string().min(1),
        keyFile: z.string().min(1),
        caFile: z.string().min(1).optional(),
        requestClientCert: z.boolean().default(false),
      })
      .strict()
      .optional(),
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
  });

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
