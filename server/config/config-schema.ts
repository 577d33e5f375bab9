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
    /** Largest request body read to classify it; bigger ones are forwarded unread. */
    maxBodyBytes: positiveInt.default(1024 * 1024),
    /** Largest JSON answer, or single SSE event, read to find an outcome. */
    maxAnswerBytes: positiveInt.default(1024 * 1024),
    /** Paths treated as HTTP+SSE message endpoints before an `endpoint` event names them. */
    httpSseMessagePaths: z.array(z.string().startsWith('/')).default(['/messages']),
    flushIntervalMs: positiveInt.default(1000),
    /** Failed flush attempts before a batch of counts is dropped (and counted as dropped). */
    flushMaxAttempts: positiveInt.default(10),
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
      })
      .default({ sessions: 10_000, integrations: 5_000, methods: 256, versions: 64, cells: 50_000, pendingAnswers: 50_000 }),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
