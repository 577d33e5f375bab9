/** A tiny element builder: plain DOM, text always set as text (never as HTML). */

export type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'number' ? String(child) : child);
  }
}

/** Replaces everything inside `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The element with this id, which the page's HTML guarantees. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** A muted "Loading…" line, busy for assistive technology. */
export function loading(what: string): HTMLElement {
  return h('p', { class: 'loading', role: 'status', 'aria-busy': 'true' }, `Loading ${what}…`);
}

export function emptyState(text: string, testId: string): HTMLElement {
  return h('p', { class: 'empty', 'data-testid': testId }, text);
}

export function errorLine(message: string): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, message);
}

/** Why `what` is missing: an inline error, or a quiet wait while the admin token is being asked for. */
export function failureLine(what: string, error: unknown): HTMLElement {
  if (typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 401) {
    return h('p', { class: 'loading waiting', role: 'status' }, 'Waiting for the admin token…');
  }
  return errorLine(`${what} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
}
