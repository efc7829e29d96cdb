// Making the page's nodes, for the member's page and the guest page alike. Data never goes through
// innerHTML: every node is made with createElement and textContent.

/** TMDB's image server, by size. */
export const POSTER = 'https://image.tmdb.org/t/p/w342';

export const $ = (id) => document.getElementById(id);

export function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

export function button(className, text, label) {
  const b = h('button', className, text);
  b.type = 'button';
  if (label) b.setAttribute('aria-label', label);
  return b;
}

/** An image on TMDB's server at `base` (a size), or null for a path that is not one; it goes away if it fails. */
export function picture(base, path, width, height, alt = '') {
  if (typeof path !== 'string' || !path.startsWith('/')) return null;
  const img = h('img');
  img.src = base + path;
  img.alt = alt;
  img.width = width;
  img.height = height;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.addEventListener('error', () => img.remove());
  return img;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
