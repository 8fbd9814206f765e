// Building the console's HTML and SVG elements, and keeping a list of them in step with data
// (keyed, so a re-render keeps the element that has keyboard focus).

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') element.textContent = String(value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// html('button', {type: 'button', onclick: f}, 'Stop') → <button type="button">Stop</button>
export const html = (tag, attributes, ...children) =>
  fill(document.createElement(tag), attributes, children);

export const svg = (tag, attributes, ...children) =>
  fill(document.createElementNS(SVG_NS, tag), attributes, children);

// Makes `container`'s children one element per item, in order: create(item) makes a new one,
// update(element, item) refreshes one; elements whose key is gone are removed.
export function syncKeyed(container, items, keyOf, create, update) {
  const existing = new Map();
  for (const child of container.children) existing.set(child.dataset.key, child);
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let element = existing.get(key);
    existing.delete(key);
    if (!element) {
      element = create(item);
      element.dataset.key = key;
    }
    update(element, item);
    const expected = previous ? previous.nextElementSibling : container.firstElementChild;
    if (expected !== element) container.insertBefore(element, expected);
    previous = element;
  }
  for (const element of existing.values()) element.remove();
}
