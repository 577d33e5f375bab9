import { describe, expect, test } from 'vitest';
import { clientIdUrlProblem } from '../../server/identity/client-id-url-problem.js';

describe('clientIdUrlProblem', () => {
  test('an https URL with a path is a Client ID Metadata Document URL, with a port or a query too', () => {
    for (const id of ['https://desk.example/client.json', 'https://desk.example:8443/oauth/client', 'https://127.0.0.1:4443/client.json', 'https://desk.example/c?v=2']) {
      expect(clientIdUrlProblem(id), id).toBeUndefined();
    }
  });

  test.each([
    ['desk-app', 'not a URL'],
    ['http://desk.example/client.json', 'not an https URL'],
    ['https://desk.example', 'has no path'],
    ['https://desk.example/', 'has no path'],
    ['https://desk.example?x=1', 'has no path'],
    ['https://desk.example/client.json#top', 'carries a fragment'],
    ['https://user:pw@desk.example/client.json', 'carries a user name or password'],
    ['https://desk.example/a/../client.json', 'has a dot segment in its path'],
    ['https://desk.example/./client.json', 'has a dot segment in its path'],
    ['https://desk.example/a/%2E%2E/client.json', 'has a dot segment in its path'],
    ['https://desk.example/client.json ', 'has white space, a control character or a backslash'],
    ['https://desk.example\\client.json', 'has white space, a control character or a backslash'],
  ])('%s: %s', (id, problem) => {
    expect(clientIdUrlProblem(id)).toBe(problem);
  });
});
