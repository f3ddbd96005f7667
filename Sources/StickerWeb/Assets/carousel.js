"use strict";
// The sticker carousel: a horizontally scrolling strip snapped to its items, where each item's
// scale, tilt, blur, brightness and opacity follow its distance from the centre.
//
// Why a requestAnimationFrame pass rather than CSS scroll-driven animations: those are Chromium-only
// today, and the pass also knows which item is centred (caption, keyboard). It stays cheap with
// many stickers: item centres are measured once per layout (never per frame), a frame reads one
// scrollLeft and writes only transform, filter and opacity, and items more than three places away
// get their final look once and are then skipped.
function createCarousel({ strip, caption, previous, next }) {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let items = [];      // { key, name, node, far }
  let centres = [];    // each item's centre, in the strip's scroll coordinates
  let step = 0;        // distance between two neighbours' centres; 0 until laid out
  let centred = -1;    // the item nearest the middle
  let target = null;   // where a key, wheel or button move is heading (moves chain from there)
  let frame = 0;
  let wheel = 0;       // wheel travel not yet turned into a move

  function measure() {
    centres = items.map(item => item.node.offsetLeft + item.node.offsetWidth / 2);
    step = centres.length > 1 ? centres[1] - centres[0] : (items.length ? items[0].node.offsetWidth : 0);
    for (const item of items) item.far = false;
  }

  // Distance d from the middle in items (signed, right is positive) → the item's look.
  function look(item, d) {
    const a = Math.min(Math.abs(d), 3);
    const side = Math.max(-3, Math.min(3, d));
    const style = item.node.style;
    style.transform = `translateY(${(a * a * 3).toFixed(1)}px) rotate(${(side * 6).toFixed(2)}deg) scale(${(1 - 0.16 * a).toFixed(3)})`;
    style.filter = a < 0.02 ? "none" : `blur(${(a * 1.1).toFixed(2)}px) brightness(${(1 - 0.12 * a).toFixed(3)})`;
    style.opacity = (1 - 0.22 * a).toFixed(3);
    style.zIndex = String(100 - Math.round(a * 10));
  }

  function update() {
    frame = 0;
    if (!items.length) return;
    if (!step) measure();
    if (!step) return;  // not laid out (hidden tab): the resize observer calls back
    const middle = strip.scrollLeft + strip.clientWidth / 2;
    let nearest = 0;
    let nearestDistance = Infinity;
    for (let i = 0; i < items.length; i++) {
      const d = (centres[i] - middle) / step;
      const a = Math.abs(d);
      if (a < nearestDistance) { nearestDistance = a; nearest = i; }
      if (a > 3.5) {
        if (items[i].far) continue;
        items[i].far = true;
      } else items[i].far = false;
      look(items[i], d);
    }
    if (nearest !== centred) {
      if (items[centred]) { items[centred].node.removeAttribute("data-centred"); items[centred].node.removeAttribute("aria-current"); }
      centred = nearest;
      items[centred].node.setAttribute("data-centred", "");
      items[centred].node.setAttribute("aria-current", "true");
      caption.textContent = `${items[centred].name} — ${centred + 1} of ${items.length}`;
    }
    previous.disabled = current() <= 0;
    next.disabled = current() >= items.length - 1;
  }

  function schedule() { if (!frame) frame = requestAnimationFrame(update); }
  function current() { return target ?? centred; }

  // Centres item `index`; false when it was already the destination (so a wheel at either end
  // scrolls the page instead). Scrolls even then: a stale destination must not leave it off-centre.
  function go(index) {
    if (!step) return false;
    const i = Math.max(0, Math.min(items.length - 1, index));
    const moved = i !== current();
    target = i;
    strip.scrollTo({ left: centres[i] - strip.clientWidth / 2, behavior: reduceMotion.matches ? "auto" : "smooth" });
    return moved;
  }

  function makeItem(entry) {
    const node = el("figure", { class: "carousel-item", "data-key": entry.key, title: entry.name },
      el("img", { src: entry.src, alt: "Sticker of " + entry.name, draggable: "false" }));
    const item = { key: entry.key, name: entry.name, node, far: false };
    node.addEventListener("click", () => go(items.indexOf(item)));
    return item;
  }

  // Shows these stickers ({ key, name, src }, in order), keeping the centred one where it is.
  function show(entries) {
    const keys = entries.map(e => e.key).join("\n");
    if (keys === items.map(i => i.key).join("\n")) return;
    const keep = items[centred] ? items[centred].key : null;
    const old = new Map(items.map(item => [item.key, item]));
    items = entries.map(entry => old.get(entry.key) || makeItem(entry));
    strip.replaceChildren(...items.map(item => item.node));
    centred = -1;
    target = null;
    measure();
    const kept = items.findIndex(item => item.key === keep);
    if (kept >= 0 && step) strip.scrollLeft = centres[kept] - strip.clientWidth / 2;
    update();
  }

  // Loads a sticker's image again (it was restyled): `version` is a new query string, so the
  // browser cannot answer from its cache.
  function reload(key, version) {
    const item = items.find(item => item.key === key);
    if (!item) return;
    const img = item.node.querySelector("img");
    img.src = img.src.split("?")[0] + version;
  }

  strip.addEventListener("scroll", schedule, { passive: true });
  strip.addEventListener("scrollend", () => { target = null; update(); });
  // A finger or a pointer on the strip takes over from any move under way.
  strip.addEventListener("pointerdown", () => { target = null; }, { passive: true });
  strip.addEventListener("touchstart", () => { target = null; }, { passive: true });
  new ResizeObserver(() => { measure(); update(); }).observe(strip);

  strip.addEventListener("keydown", e => {
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in moves) go(current() + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(items.length - 1);
    else return;
    e.preventDefault();
  });

  // A vertical wheel moves one sticker per notch (a trackpad's small steps add up to one); a
  // horizontal swipe scrolls natively and snaps. At either end the wheel scrolls the page again.
  strip.addEventListener("wheel", e => {
    if (Math.abs(e.deltaX) >= Math.abs(e.deltaY)) return;
    const delta = e.deltaY * (e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? strip.clientWidth : 1);
    const direction = Math.sign(delta);
    const end = direction > 0 ? current() >= items.length - 1 : current() <= 0;
    if (end) { wheel = 0; return; }
    e.preventDefault();
    if (Math.sign(wheel) !== direction) wheel = 0;
    wheel += delta;
    if (Math.abs(wheel) >= 50) { go(current() + direction); wheel = 0; }
  }, { passive: false });

  previous.addEventListener("click", () => go(current() - 1));
  next.addEventListener("click", () => go(current() + 1));

  return { show, go, update, reload, get centred() { return centred; }, get count() { return items.length; } };
}
