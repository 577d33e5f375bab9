import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Captured traffic from the official SDK peers, kept in the project and read as it is. */
export const WIRE_TRACES_DIR = resolve(
  process.env.MCP_SUNSET_WIRE_TRACES ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'wire-traces'),
);

export interface HttpRecord {
  type: 'http';
  seq: number;
  t_req: number;
  t_res: number | null;
  t_end: number | null;
  end: string;
  method: string;
  path: string;
  req_headers: Record<string, string>;
  req_body: string | null;
  status: number | null;
  res_headers: Record<string, string> | null;
  res_body: string | null;
  res_chunks?: [number, string][];
}

export interface StdioRecord {
  type: 'stdio';
  conn: number;
  t: number;
  dir: 'c2s' | 's2c' | 'stderr' | 'event';
  line: string;
}

export interface Label {
  ref: number;
  index: number;
  dir: string;
  kind: string;
  method: string;
  id: string | number | null;
  era: string;
  transport: string;
  version: string | null;
  outcome: string | null;
  why: string;
  uncertain?: boolean;
}

export interface WireTrace {
  name: string;
  /** Records keyed by their label `ref`: HTTP `seq`, or the stdio line index (header = 0). */
  records: { ref: number; record: HttpRecord | StdioRecord }[];
  labels: Label[];
}

function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as T);
}

export function listWireTraces(): WireTrace[] {
  if (!existsSync(WIRE_TRACES_DIR)) {
    throw new Error(`wire traces not found at ${WIRE_TRACES_DIR}; set MCP_SUNSET_WIRE_TRACES`);
  }
  const names = readdirSync(WIRE_TRACES_DIR)
    .filter((file) => file.endsWith('.jsonl') && !file.endsWith('.labels.jsonl'))
    .map((file) => file.slice(0, -'.jsonl'.length))
    .sort();
  return names.map((name) => {
    const lines = readJsonLines<{ type: string }>(join(WIRE_TRACES_DIR, `${name}.jsonl`));
    const records = lines.flatMap((record, lineIndex): WireTrace['records'] => {
      if (record.type === 'http') return [{ ref: (record as HttpRecord).seq, record: record as HttpRecord }];
      if (record.type === 'stdio') return [{ ref: lineIndex, record: record as StdioRecord }];
      return [];
    });
    return { name, records, labels: readJsonLines<Label>(join(WIRE_TRACES_DIR, `${name}.labels.jsonl`)) };
  });
}
