/** One section of the printed digest: a heading the print rules keep with what follows it. */
import { h, type Child } from './dom.js';

export function digestSection(testId: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = `${testId}-title`;
  return h('section', { class: 'digest-section', 'data-testid': testId, 'aria-labelledby': headingId }, h('h2', { id: headingId }, title), ...children);
}
