/**
 * Where the toasts may stand: never over the focused control, an open dialog or a result
 * panel (`data-result-panel`), WCAG 2.4.11. The layer tries the bottom corner first (the
 * stylesheet puts it right, or left of an open drawer), then the top; it keeps the first that
 * covers nothing, else the one that covers the least important thing.
 */
export type ToastEdge = 'bottom' | 'top';

const EDGES: readonly ToastEdge[] = ['bottom', 'top'];

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** What a toast must not cover, most important first: the focus, then dialogs, then results. */
function avoided(layer: HTMLElement): Box[][] {
  const visible = (element: Element): boolean => !layer.contains(element) && element.getClientRects().length > 0;
  const focused = document.activeElement;
  const focus = focused !== null && focused !== document.body && visible(focused) ? [focused] : [];
  const dialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].filter(visible);
  const results = [...document.querySelectorAll('[data-result-panel]')].filter(visible);
  return [focus, dialogs, results].map((elements) => elements.map((element) => element.getBoundingClientRect()));
}

/** How badly a placement covers: the index of the most important group it touches (lower is worse). */
function harm(box: Box, groups: Box[][]): number {
  const index = groups.findIndex((group) => group.some((rect) => overlaps(box, rect)));
  return index === -1 ? Number.POSITIVE_INFINITY : index;
}

/** Puts the layer (`data-edge`) where it covers nothing, or the least. */
export function placeToasts(layer: HTMLElement): ToastEdge {
  if (layer.childElementCount === 0) return (layer.dataset['edge'] as ToastEdge | undefined) ?? 'bottom';
  const groups = avoided(layer);
  let best: { edge: ToastEdge; harm: number } | null = null;
  for (const edge of EDGES) {
    layer.dataset['edge'] = edge;
    const cost = harm(layer.getBoundingClientRect(), groups);
    if (cost === Number.POSITIVE_INFINITY) return edge;
    if (best === null || cost > best.harm) best = { edge, harm: cost };
  }
  const chosen = best?.edge ?? 'bottom';
  layer.dataset['edge'] = chosen;
  return chosen;
}
