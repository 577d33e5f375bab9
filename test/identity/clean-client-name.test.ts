import { describe, expect, test } from 'vitest';
import { cleanClientName } from '../../server/identity/clean-client-name.js';

describe('cleanClientName', () => {
  test('a plain name is kept as it is', () => {
    expect(cleanClientName('Support Desk')).toBe('Support Desk');
    expect(cleanClientName('Büro 日本 🚀')).toBe('Büro 日本 🚀');
  });

  test('control and format characters go, line breaks become a space, white space is one space and trimmed', () => {
    expect(cleanClientName('  Desk\u0000\u0007\u001b[31m\u007f\u0085App ')).toBe('Desk[31m App');
    expect(cleanClientName('Desk\r\nApp\tOne\u2028Two')).toBe('Desk App One Two');
    // A right-to-left override would make the name read as another; zero-width characters hide in it.
    expect(cleanClientName('\u202Egnp.exe\u202C Desk\u200B\uFEFF')).toBe('gnp.exe Desk');
    expect(cleanClientName('Desk \uD800 App')).toBe('Desk App');
  });

  test('a long name is cut to 128 characters, never inside a character', () => {
    expect(cleanClientName('a'.repeat(500))).toBe('a'.repeat(128));
    expect(Array.from(cleanClientName('🚀'.repeat(200))!)).toHaveLength(128);
    expect(cleanClientName(`${'a'.repeat(127)} b`)).toBe('a'.repeat(127));
  });

  test('nothing left, or no string, is no name', () => {
    for (const value of ['', '   ', '\u0007\u200B', undefined, null, 42, ['Desk'], { name: 'Desk' }]) expect(cleanClientName(value)).toBeUndefined();
  });
});
