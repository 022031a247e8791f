// Tiny DOM helpers: elements are built with textContent only, never from HTML strings, so no name
// in a plan can inject markup.
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

/** A definition list of label / value rows. */
export function facts(rows: [string, string][]): HTMLDListElement {
  return el('dl', { class: 'facts' }, ...rows.flatMap(([label, value]) => [el('dt', {}, label), el('dd', {}, value)]));
}
