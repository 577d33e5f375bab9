/**
 * When the server has an admin token, every API call needs it. The dashboard asks once, keeps it
 * in sessionStorage (gone when the tab closes) and asks again if the server rejects it.
 */
import { byId, errorLine, replaceChildren } from './dom.js';

const STORAGE_KEY = 'mcp-sunset.admin-token';

export interface TokenGate {
  token(): string | null;
  /** Shows the prompt; a stored token the server rejected is forgotten. */
  show(): void;
}

function readStored(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: ask every time
  }
}

export function createTokenGate(onToken: () => void): TokenGate {
  const gate = byId('token-gate');
  const form = byId<HTMLFormElement>('token-form');
  const input = byId<HTMLInputElement>('token-input');
  const message = byId('token-error');
  let token = readStored();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value === '') return;
    token = value;
    try {
      sessionStorage.setItem(STORAGE_KEY, value);
    } catch {
      // kept in memory only
    }
    input.value = '';
    gate.hidden = true;
    document.body.classList.remove('is-locked');
    onToken();
  });

  return {
    token: () => token,
    show() {
      if (!gate.hidden) return;
      const rejected = token !== null;
      token = null;
      try {
        sessionStorage.removeItem(STORAGE_KEY);
      } catch {
        // nothing stored
      }
      replaceChildren(message, rejected ? errorLine('That token was not accepted. Try again.') : null);
      gate.hidden = false;
      document.body.classList.add('is-locked');
      input.focus();
    },
  };
}
