/**
 * The fleet: each node's era, served versions, server info and last check; a node that differs
 * stands out. Below, the sidecars writing to this store: last flush and the policy version each runs.
 */
import { ApiError, type ApiClient } from './api-client.js';
import type { FleetNode, FleetResponse, Sidecar } from './api-types.js';
import { emptyState, errorLine, failureLine, h, loading, replaceChildren } from './dom.js';
import { formatAgo, formatTime } from './format.js';

function servesLegacy(node: FleetNode): string {
  if (node.era === 'legacy') return 'legacy only';
  if (node.legacyAccepted === true) return 'modern and legacy';
  if (node.legacyAccepted === false) return 'modern only';
  return '—';
}

function nodeRow(node: FleetNode): HTMLTableRowElement {
  const flag = node.down ? h('span', { class: 'badge state-firing' }, node.state) : node.differs ? h('span', { class: 'badge severity-warning' }, 'differs') : h('span', { class: 'badge deadline-ok' }, 'ready');
  return h(
    'tr',
    { class: node.differs || node.down ? 'fleet-odd' : null, 'data-testid': 'fleet-node', 'data-node': node.node, 'data-differs': String(node.differs) },
    h('td', {}, h('strong', {}, node.node), h('div', { class: 'muted small' }, node.target)),
    h('td', {}, flag),
    h('td', {}, servesLegacy(node)),
    h('td', { 'data-testid': 'fleet-versions' }, node.supportedVersions.join(', ') || '—'),
    h('td', {}, node.serverInfo === null ? '—' : `${node.serverInfo.name} ${node.serverInfo.version}`, h('div', { class: 'muted small' }, 'self-reported')),
    h('td', {}, formatTime(node.at), h('div', { class: 'muted small' }, node.detail)),
  );
}

function sidecarBadges(sidecar: Sidecar): HTMLElement[] {
  const badges: HTMLElement[] = [];
  if (sidecar.lagging) badges.push(h('span', { class: 'badge severity-warning', 'data-testid': 'sidecar-lagging' }, 'lagging'));
  if (sidecar.stale) badges.push(h('span', { class: 'badge state-firing', 'data-testid': 'sidecar-stale' }, 'stale'));
  if (badges.length === 0) badges.push(h('span', { class: 'badge deadline-ok' }, 'current'));
  return badges;
}

function sidecarRow(sidecar: Sidecar, now: number): HTMLTableRowElement {
  return h(
    'tr',
    { class: sidecar.lagging || sidecar.stale ? 'fleet-odd' : null, 'data-testid': 'sidecar', 'data-node': sidecar.node, 'data-lagging': String(sidecar.lagging), 'data-stale': String(sidecar.stale) },
    h('td', {}, h('strong', {}, sidecar.node)),
    h('td', {}, sidecar.kind),
    h('td', { 'data-testid': 'sidecar-last-flush', title: formatTime(sidecar.lastFlushAt) }, formatAgo(sidecar.lastFlushAt, now)),
    h('td', { 'data-testid': 'sidecar-policy' }, String(sidecar.policyVersion)),
    h('td', {}, ...sidecarBadges(sidecar)),
  );
}

/** The sidecars that flush to this store; empty when none has yet. */
function sidecarsSection(fleet: FleetResponse, now: number): HTMLElement[] {
  if (fleet.sidecars.length === 0) return [];
  return [
    h('h3', {}, 'Sidecars'),
    h('p', { class: 'muted small', 'data-testid': 'sidecars-policy' }, `The stored policy is at version ${fleet.policyVersion}.`),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { 'data-testid': 'sidecars-table' },
        h('thead', {}, h('tr', {}, ...['Node', 'Kind', 'Last flush', 'Policy version', 'State'].map((label) => h('th', { scope: 'col' }, label)))),
        h('tbody', {}, ...fleet.sidecars.map((sidecar) => sidecarRow(sidecar, now))),
      ),
    ),
  ];
}

export function renderFleet(body: HTMLElement, fleet: FleetResponse, now = Date.now()): void {
  const sidecars = sidecarsSection(fleet, now);
  if (fleet.configured.length === 0) return replaceChildren(body, emptyState('No fleet configured — list the endpoints of one server under fleet.nodes.', 'fleet-empty'), ...sidecars);
  if (fleet.nodes.length === 0) return replaceChildren(body, emptyState('No check has run yet.', 'fleet-unchecked'), ...sidecars);
  const summary = fleet.drift
    ? h('p', { class: 'delivery-failed', 'data-testid': 'fleet-drift' }, `Not uniform: most nodes serve ${fleet.expected?.join(', ') ?? 'nothing'}; the highlighted ones differ.`)
    : h('p', { class: 'muted', 'data-testid': 'fleet-uniform' }, `Uniform: every ready node serves ${fleet.expected?.join(', ') ?? 'nothing'}.`);
  replaceChildren(
    body,
    summary,
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { 'data-testid': 'fleet-table' },
        h('thead', {}, h('tr', {}, ...['Node', 'State', 'Eras', 'Versions served', 'Server', 'Last check'].map((label) => h('th', { scope: 'col' }, label)))),
        h('tbody', {}, ...fleet.nodes.map(nodeRow)),
      ),
    ),
    ...sidecars,
  );
}

export async function loadFleet(api: ApiClient, body: HTMLElement): Promise<FleetResponse | undefined> {
  if (body.childElementCount === 0) replaceChildren(body, loading('the fleet'));
  try {
    const fleet = await api.get<FleetResponse>('/fleet');
    renderFleet(body, fleet);
    return fleet;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) replaceChildren(body, emptyState('Fleet checks unavailable on this server.', 'fleet-unavailable'));
    else replaceChildren(body, failureLine('Fleet', error));
    return undefined;
  }
}

/** "Check now": probes every node on the server, then redraws. */
export function createFleetCheckButton(api: ApiClient, body: HTMLElement): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary small-button', 'data-testid': 'fleet-check' }, 'Check now');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      renderFleet(body, await api.send<FleetResponse>('POST', '/fleet/check', {}));
    } catch (error) {
      body.prepend(errorLine(`Check failed: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
