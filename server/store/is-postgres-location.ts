/** Whether `--db` names a Postgres server (a `postgres://` or `postgresql://` URL) rather than a SQLite file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
