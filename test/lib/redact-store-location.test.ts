import { describe, expect, test } from 'vitest';
import { findStoreSecrets } from '../../server/lib/find-store-secrets.js';
import { redactStoreLocation } from '../../server/lib/redact-store-location.js';

describe('redactStoreLocation', () => {
  test('leaves file paths alone, relative, absolute, Windows and in-memory', () => {
    for (const path of ['.data/mcp-sunset.db', '/var/lib/mcp sunset/a:b@c.db', 'C:\\data\\mcp.db', ':memory:', 'data:x@y.db', '']) {
      expect(redactStoreLocation(path)).toBe(path);
      expect(findStoreSecrets(path)).toEqual([]);
    }
  });

  test('masks the password of a URL and keeps user, host, port, database and options', () => {
    expect(redactStoreLocation('postgres://sunset:s3cret@db.internal:5432/mcp?sslmode=require')).toBe('postgres://sunset:***@db.internal:5432/mcp?sslmode=require');
  });

  test('masks a percent-encoded password as written', () => {
    expect(redactStoreLocation('postgresql://u:p%40ss%2Fw%3Ard@h/db')).toBe('postgresql://u:***@h/db');
  });

  test('masks a password holding unencoded @, / , # and : up to the last @', () => {
    expect(redactStoreLocation('postgres://u:p@ss/w#o:rd@host/db')).toBe('postgres://u:***@host/db');
    expect(redactStoreLocation('postgres://u:pa@ss@host/db')).toBe('postgres://u:***@host/db');
  });

  test('masks a password with no user name', () => {
    expect(redactStoreLocation('redis://:hunter22@cache:6379/0')).toBe('redis://:***@cache:6379/0');
  });

  test('leaves a URL with a user and no password, or no user at all, as it is', () => {
    for (const url of ['postgres://sunset@db/mcp', 'postgres://db:5432/mcp', 'postgres:///mcp?host=/run/pg']) expect(redactStoreLocation(url)).toBe(url);
  });

  test('masks password= query parameters, any case, next to other parameters', () => {
    expect(redactStoreLocation('postgres://db/mcp?user=u&password=top%20secret&sslmode=require')).toBe('postgres://db/mcp?user=u&password=***&sslmode=require');
    expect(redactStoreLocation('postgres://db/mcp?PASSWORD=x1&sslpassword=x2')).toBe('postgres://db/mcp?PASSWORD=***&sslpassword=***');
    expect(redactStoreLocation('postgres://u:one@db/mcp?password=two')).toBe('postgres://u:***@db/mcp?password=***');
  });

  test('masks libpq key=value passwords, quoted ones with spaces included', () => {
    expect(redactStoreLocation("host=db user=u password='two words' dbname=mcp")).toBe('host=db user=u password=*** dbname=mcp');
    expect(redactStoreLocation('host=db password = plain dbname=mcp')).toBe('host=db password = *** dbname=mcp');
  });

  test('never shows the password of strings that are not valid URLs', () => {
    const hostile = ['postgres://u:pw@[::1', 'postgres://u:pw@', 'postgres://u:pw@host:notaport/db', 'postgres://u:p w@h/db', 'POSTGRES://U:PW@H', 'x+y.z://u:pw@'];
    for (const location of hostile) {
      const shown = redactStoreLocation(location);
      expect(shown, location).not.toMatch(/pw|p w/i);
      expect(shown, location).toContain('***');
    }
  });
});

describe('redactStoreLocation, a secret repeated', () => {
  test('masks every copy of a secret in the location, not only the one in its place', () => {
    expect(redactStoreLocation('postgres://admin:admin@db/mcp')).toBe('postgres://***:***@db/mcp');
    expect(redactStoreLocation('/srv/hunter22/x.db password=hunter22')).toBe('/srv/***/x.db password=***');
  });
});
