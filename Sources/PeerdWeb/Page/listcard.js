// A listed movie as the list view's card: its poster (or its title on a quiet gradient), title, year,
// who added it and when, and the members' marks as compact badges. The title's link to the movie
// view covers the whole card (app.css), so a click, a tap or Enter anywhere on it opens the view.
import { POSTER, button, h } from './dom.js';
import { ago, clock, day, page, titleOf } from './page.js';

export function card(row) {
  const li = h('li', 'card');
  li.dataset.movieId = row.movieId;
  const poster = h('div', `poster-box hue-${row.movieId % 8}`);
  const ph = h('div', 'ph');
  ph.setAttribute('aria-hidden', 'true');
  ph.append(h('span', 'ph-title'), h('span', 'ph-year'));
  poster.append(ph);
  const body = h('div', 'card-body');
  const title = h('h3', 'title');
  const link = h('a', 'movie-link');
  link.href = `#movie/${row.movieId}`;
  title.append(link);
  body.append(title, h('p', 'year'), h('p', 'added'), h('p', 'marks'), button('remove', 'Remove'));
  li.append(poster, body);
  return li;
}

/** Shows `row` on its card `li`, made by `card`. */
export function fill(li, row) {
  const name = titleOf(row);
  const title = li.querySelector('.title');
  title.firstChild.textContent = row.title || String(row.movieId);
  title.classList.toggle('bare', !row.title);
  li.querySelector('.year').textContent = row.year ? String(row.year) : '';
  li.querySelector('.ph-title').textContent = name;
  li.querySelector('.ph-year').textContent = row.year ? String(row.year) : '';
  li.querySelector('.remove').setAttribute('aria-label', `Remove ${name}`);
  stamp(li, row);
  badges(li.querySelector('.marks'), row);

  const box = li.querySelector('.poster-box');
  let img = box.querySelector('img.poster');
  const path = typeof row.posterPath === 'string' && row.posterPath.startsWith('/') ? row.posterPath : null;
  if (!path) {
    img?.remove();
  } else {
    if (!img) {
      img = h('img', 'poster');
      img.loading = 'lazy';
      img.decoding = 'async';
      img.width = 342;
      img.height = 513;
      img.addEventListener('error', () => img.classList.add('broken'));
      img.addEventListener('load', () => img.classList.remove('broken'));
      box.append(img);
    }
    img.alt = `Poster: ${name}`;
    const src = POSTER + path;
    if (img.getAttribute('src') !== src) img.src = src;
  }
}

/** "alice · 2 h ago", and when in full as a tooltip. */
export function stamp(li, row) {
  const by = row.addedBy || [];
  const who = by.length > 2 ? `${by[0]}, ${by[1]} +${by.length - 2}` : by.join(', ');
  const added = li.querySelector('.added');
  added.textContent = `${who} · ${ago(row.addedAt)}`;
  const at = new Date(row.addedAt);
  added.title = `Added by ${by.join(', ')}; first on ${day(at)} at ${clock(at)}`;
}

/** Compact badges of the members' marks: who wants it, who has seen it, the average rating, vetoes. */
export function badges(box, row) {
  const marks = row.marks || [];
  const items = [];
  const names = (who) => who.map((m) => m.name).sort().join(', ');
  const group = (kind, sign, who, said) => {
    if (!who.length) return;
    const b = badge(kind, `${sign} ${who.length}`, `${said} ${names(who)}`);
    b.dataset.count = who.length;
    b.classList.toggle('mine', who.some((m) => m.peer === page.me));
    items.push(b);
  };
  group('want', '♥', marks.filter((m) => m.want), 'Wanted by');
  group('seen', '✓', marks.filter((m) => m.seen), 'Seen by');
  if (row.averageRating != null) {
    const rated = marks.filter((m) => m.rating != null);
    const b = badge('rating', `★ ${row.averageRating.toFixed(1)}`,
      `Rated ${row.averageRating.toFixed(1)} of 10 on average by ${names(rated)}`);
    b.dataset.rating = row.averageRating;
    b.classList.toggle('mine', rated.some((m) => m.peer === page.me));
    items.push(b);
  }
  group('veto', '✕', marks.filter((m) => m.veto), 'Vetoed by');
  box.replaceChildren(...items);
}

/** A badge: short to the eye, in words to a screen reader (and as a tooltip). */
function badge(kind, short, words) {
  const b = h('span', `badge ${kind}`);
  b.title = words;
  const seen = h('span', null, short);
  seen.setAttribute('aria-hidden', 'true');
  b.append(seen, h('span', 'vh', `${words}.`));
  return b;
}

