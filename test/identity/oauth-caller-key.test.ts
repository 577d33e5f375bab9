import { describe, expect, test } from 'vitest';
import { clientIdOfCallerKey, oauthCallerKey } from '../../server/identity/oauth-caller-key.js';

describe('clientIdOfCallerKey', () => {
  test('an OAuth caller key gives back the client id it was made from', () => {
    for (const id of ['https://desk.example/client.json', 'desk-app', `https://desk.example/${'a'.repeat(100)}`]) {
      expect(clientIdOfCallerKey(oauthCallerKey(id))).toBe(id);
    }
  });

  test('a key cut to fit, or another mechanism\'s key, gives none', () => {
    expect(clientIdOfCallerKey(oauthCallerKey(`https://desk.example/${'a'.repeat(200)}`))).toBeUndefined();
    for (const key of ['tok_0123456789abcdef', 'mtls:robot', 'desk', 'oauth:']) expect(clientIdOfCallerKey(key)).toBeUndefined();
  });
});
