extension Assets {
    /// The page's script: the shared helpers and tab switching, then each tab's part.
    static var appJS: String { commonJS + stickersJS + colorsJS + spaceJS }

    static let commonJS = #"""
"use strict";
// Shared helpers: JSON requests whose errors carry the server's message.
async function api(method, url, body, headers) {
  const response = await fetch(url, { method, body, headers });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (!response.ok) {
    const message = (json && json.error && json.error.message) || response.statusText || ("HTTP " + response.status);
    throw new Error(message);
  }
  return json;
}
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
function swatches(colors) {
  const bar = el("div", { class: "swatches", title: colors.map(c => c.hex).join(" ") });
  for (const c of colors) bar.append(el("span", { style: `background:${c.hex};flex:${Math.max(c.weight, 0.02)}`, title: `${c.hex} ${(c.weight * 100).toFixed(1)}%` }));
  return bar;
}
function showMessage(node, text, isError) {
  node.textContent = text || "";
  node.classList.toggle("error", !!isError);
}
const tabs = {};
function selectTab(name) {
  for (const button of document.querySelectorAll("nav [role=tab]")) button.setAttribute("aria-selected", String(button.dataset.tab === name));
  for (const section of document.querySelectorAll("main > .tab")) section.hidden = section.id !== "tab-" + name;
  if (tabs[name] && tabs[name].shown) tabs[name].shown();
  history.replaceState(null, "", "#" + name);
}
document.querySelectorAll("nav [role=tab]").forEach(b => b.addEventListener("click", () => selectTab(b.dataset.tab)));
window.addEventListener("DOMContentLoaded", () => {
  const wanted = location.hash.slice(1);
  selectTab(["stickers", "colors", "space"].includes(wanted) ? wanted : "stickers");
});
"""#

    static let stickersJS = #"""
// Stickers tab: photos in, live progress over server-sent events, results in a carousel and a grid.
(function () {
  const $ = id => document.getElementById(id);
  const message = $("sticker-message");
  let state = null;
  let events = null;
  let carouselIndex = 0;
  const cards = new Map();

  async function refresh() {
    try { render(await api("GET", "/api/stickers")); } catch (e) { showMessage(message, e.message, true); }
  }

  function imageURL(id, kind) { return `/api/stickers/photos/${id}/${kind}`; }

  function card(photo) {
    const node = el("article", { class: "card " + photo.status, "data-id": photo.id, "data-status": photo.status });
    const images = el("div", { class: "images" });
    let status;
    if (photo.status === "processed") {
      images.append(el("img", { class: "sticker checker", src: imageURL(photo.id, "sticker.png"), alt: "Sticker of " + photo.name }));
      images.append(el("img", { class: "gradient", src: imageURL(photo.id, "gradient.png"), alt: "Gradient sticker of " + photo.name }));
      status = el("div", { class: "status", text: "Sticker ready" });
    } else if (photo.status === "invalid") {
      images.append(el("div", { class: "placeholder", style: "animation:none;background:#f3dede" }));
      status = el("div", { class: "status reason", text: "⚠ " + (photo.reason || "cannot be used") });
    } else {
      images.append(el("img", { class: "thumb", loading: "lazy", src: imageURL(photo.id, "original"), alt: photo.name,
        onerror: e => e.target.replaceWith(el("div", { class: "placeholder" })) }));
      status = el("div", { class: "status", text: state && state.isProcessing ? "Processing…" : "Waiting" });
    }
    node.append(
      el("button", { class: "remove", title: "Remove " + photo.name, "aria-label": "Remove " + photo.name, text: "×",
        onclick: () => act("DELETE", `/api/stickers/photos/${photo.id}`) }),
      images, el("div", { class: "name", text: photo.name, title: photo.name }), status);
    if (photo.colors.length) node.append(swatches(photo.colors));
    return node;
  }

  function render(snapshot) {
    state = snapshot;
    const grid = $("grid");
    const seen = new Set();
    snapshot.photos.forEach((photo, index) => {
      seen.add(photo.id);
      const key = photo.status + (photo.status === "pending" ? String(snapshot.isProcessing) : "");
      let entry = cards.get(photo.id);
      if (!entry || entry.key !== key) {
        const node = card(photo);
        if (entry) entry.node.replaceWith(node);
        entry = { node, key };
        cards.set(photo.id, entry);
      }
      if (grid.children[index] !== entry.node) grid.insertBefore(entry.node, grid.children[index] || null);
    });
    for (const [id, entry] of cards) if (!seen.has(id)) { entry.node.remove(); cards.delete(id); }

    const { completed, total, fraction } = snapshot.progress;
    $("progress").value = total ? fraction : 0;
    const invalid = snapshot.photos.filter(p => p.status === "invalid").length;
    $("progress-text").textContent = total === 0 ? "No photos yet"
      : `${completed} / ${total} done (${Math.round(fraction * 100)}%)` + (invalid ? ` · ${invalid} invalid` : "");
    $("progress-text").dataset.percent = String(Math.round(fraction * 100));
    const pending = snapshot.photos.some(p => p.status === "pending");
    $("process").disabled = snapshot.isProcessing || !pending;
    $("cancel").disabled = !snapshot.isProcessing;
    $("use-library").disabled = !snapshot.hasLibrary || snapshot.isProcessing;
    $("download").classList.toggle("disabled", !snapshot.photos.some(p => p.status === "processed"));
    $("drop-hint").hidden = total > 0;
    renderCarousel();
  }

  function renderCarousel() {
    const done = state ? state.photos.filter(p => p.status === "processed") : [];
    $("carousel").hidden = done.length === 0;
    if (!done.length) return;
    carouselIndex = ((carouselIndex % done.length) + done.length) % done.length;
    const photo = done[carouselIndex];
    const sticker = $("carousel-sticker");
    if (sticker.dataset.id !== photo.id) {
      sticker.dataset.id = photo.id;
      sticker.src = imageURL(photo.id, "sticker.png");
      sticker.alt = "Sticker of " + photo.name;
      $("carousel-gradient").src = imageURL(photo.id, "gradient.png");
      $("carousel-gradient").alt = "Gradient sticker of " + photo.name;
    }
    $("carousel-caption").textContent = `${photo.name} — ${carouselIndex + 1} of ${done.length}`;
  }

  async function act(method, url, body, headers) {
    try {
      const snapshot = await api(method, url, body, headers);
      showMessage(message, "");
      render(snapshot);
      return snapshot;
    } catch (e) {
      showMessage(message, e.message, true);
      return null;
    }
  }

  // Each file is its own request, so one refused file (not an image, too large) does not stop the rest.
  async function upload(files) {
    const errors = [];
    for (const file of files) {
      if (state && file.size > state.limits.maxUploadBytes) {
        errors.push(`${file.name}: larger than ${Math.round(state.limits.maxUploadBytes / 1048576)} MB`);
        continue;
      }
      try {
        render(await api("POST", "/api/stickers/photos?name=" + encodeURIComponent(file.name), file,
          { "Content-Type": file.type || "application/octet-stream" }));
      } catch (e) { errors.push(e.message); }
    }
    showMessage(message, errors.join(" · "), errors.length > 0);
  }

  function watch() {
    if (events) events.close();
    events = new EventSource("/api/stickers/events");
    events.addEventListener("progress", e => render(JSON.parse(e.data)));
    events.addEventListener("done", e => { render(JSON.parse(e.data)); events.close(); events = null; });
    events.onerror = () => { if (events) { events.close(); events = null; } refresh(); };
  }

  $("upload").addEventListener("change", async e => { await upload([...e.target.files]); e.target.value = ""; });
  $("use-library").addEventListener("click", () => act("POST", "/api/stickers/library"));
  $("process").addEventListener("click", async () => { if (await act("POST", "/api/stickers/process")) watch(); });
  $("cancel").addEventListener("click", () => act("POST", "/api/stickers/cancel"));
  $("clear").addEventListener("click", () => act("DELETE", "/api/stickers/photos"));
  $("carousel-prev").addEventListener("click", () => { carouselIndex -= 1; renderCarousel(); });
  $("carousel-next").addEventListener("click", () => { carouselIndex += 1; renderCarousel(); });
  const tab = $("tab-stickers");
  tab.addEventListener("dragover", e => { e.preventDefault(); tab.classList.add("drop-target"); });
  tab.addEventListener("dragleave", () => tab.classList.remove("drop-target"));
  tab.addEventListener("drop", e => { e.preventDefault(); tab.classList.remove("drop-target"); upload([...e.dataTransfer.files]); });
  tabs.stickers = { shown: () => {} };
  refresh().then(() => { if (state && state.isProcessing) watch(); });
})();
"""#

    static let colorsJS = #"""
// Colors tab: pick a photo, 3…10 colours, extract (with a loading state), a wheel of wedges, history, exports.
(function () {
  const root = document.getElementById("colors-root");
  let state = null;
  let busy = false;

  function build() {
    root.innerHTML = `
      <div class="colors-layout">
        <div class="panel">
          <div class="toolbar">
            <label class="button" for="colors-upload">Choose photo…</label>
            <input type="file" id="colors-upload" accept="image/jpeg,image/png" hidden>
            <select id="colors-from-stickers" aria-label="Or a photo of the Stickers tab"><option value="">or a photo of the Stickers tab…</option></select>
          </div>
          <img id="colors-photo" alt="" hidden style="width:100%;max-height:220px;object-fit:contain;border-radius:8px;background:#eee">
          <p id="colors-photo-name" class="hint">No photo chosen</p>
          <label for="colors-count">Colours: <output id="colors-count-value">5</output></label>
          <input type="range" id="colors-count" min="3" max="10" value="5" style="width:100%">
          <div class="toolbar" style="margin-top:.75rem">
            <button id="colors-extract" class="primary">Extract</button>
            <span id="colors-loading" hidden><span class="spinner"></span> Extracting…</span>
          </div>
          <div id="colors-message" class="message" role="status" aria-live="polite"></div>
        </div>
        <div>
          <div class="panel" id="colors-result">
            <svg id="colors-wheel" class="wheel" viewBox="-110 -110 220 220" role="img" aria-label="Colour wheel"></svg>
            <div id="colors-chips" class="palette-row"></div>
            <div class="toolbar">
              <select id="colors-format" aria-label="Export format"></select>
              <a id="colors-download" class="button disabled" download>Download</a>
            </div>
            <pre id="colors-export" class="export" hidden></pre>
          </div>
          <div class="panel" style="margin-top:1rem">
            <h3 style="margin-top:0">History</h3>
            <ul id="colors-history" class="history" style="list-style:none;padding:0;margin:0"></ul>
            <h3>Favourites</h3>
            <ul id="colors-favorites" class="history" style="list-style:none;padding:0;margin:0"></ul>
          </div>
        </div>
      </div>`;
    const $ = id => document.getElementById(id);
    $("colors-upload").addEventListener("change", async e => {
      const file = e.target.files[0];
      e.target.value = "";
      if (!file) return;
      await act("POST", "/api/colors/photo?name=" + encodeURIComponent(file.name), file, { "Content-Type": file.type || "application/octet-stream" });
    });
    $("colors-from-stickers").addEventListener("change", async e => {
      if (e.target.value) await act("POST", "/api/colors/photo?sticker=" + e.target.value);
      e.target.value = "";
    });
    $("colors-count").addEventListener("input", e => { $("colors-count-value").textContent = e.target.value; });
    $("colors-extract").addEventListener("click", extract);
    $("colors-format").addEventListener("change", updateExport);
    root.dataset.ready = "1";
  }

  async function act(method, url, body, headers) {
    const message = document.getElementById("colors-message");
    try {
      render(await api(method, url, body, headers));
      showMessage(message, "");
    } catch (e) {
      showMessage(message, e.message, true);
      try { render(await api("GET", "/api/colors")); } catch (ignored) {}
    }
  }

  async function extract() {
    const count = document.getElementById("colors-count").value;
    busy = true;
    renderBusy();
    try { await act("POST", "/api/colors/extract?count=" + count); } finally { busy = false; renderBusy(); }
  }

  function renderBusy() {
    const loading = busy || (state && state.isExtracting);
    document.getElementById("colors-loading").hidden = !loading;
    document.getElementById("colors-extract").disabled = loading || !(state && state.photoName);
  }

  // Wedges around a circle, each as wide as its colour's share of the photo.
  function wheel(colors) {
    const svg = document.getElementById("colors-wheel");
    svg.innerHTML = "";
    const ns = "http://www.w3.org/2000/svg";
    if (!colors || !colors.length) {
      const empty = document.createElementNS(ns, "circle");
      empty.setAttribute("r", "100"); empty.setAttribute("fill", "#eee");
      svg.append(empty);
      return;
    }
    const total = colors.reduce((sum, c) => sum + c.weight, 0) || 1;
    let angle = -Math.PI / 2;
    for (const c of colors) {
      const sweep = (c.weight / total) * Math.PI * 2;
      let shape;
      if (sweep >= Math.PI * 2 - 1e-6) {
        shape = document.createElementNS(ns, "circle");
        shape.setAttribute("r", "100");
      } else {
        const [x0, y0] = [100 * Math.cos(angle), 100 * Math.sin(angle)];
        const [x1, y1] = [100 * Math.cos(angle + sweep), 100 * Math.sin(angle + sweep)];
        shape = document.createElementNS(ns, "path");
        shape.setAttribute("d", `M0 0 L${x0.toFixed(2)} ${y0.toFixed(2)} A100 100 0 ${sweep > Math.PI ? 1 : 0} 1 ${x1.toFixed(2)} ${y1.toFixed(2)} Z`);
      }
      shape.setAttribute("fill", c.hex);
      shape.setAttribute("class", "wedge");
      shape.setAttribute("stroke", "#fff");
      shape.setAttribute("stroke-width", "1.5");
      const title = document.createElementNS(ns, "title");
      title.textContent = `${c.hex} ${(c.weight * 100).toFixed(1)}%`;
      shape.append(title);
      svg.append(shape);
      angle += sweep;
    }
    const hole = document.createElementNS(ns, "circle");
    hole.setAttribute("r", "42"); hole.setAttribute("fill", "#fff");
    const label = document.createElementNS(ns, "text");
    label.setAttribute("text-anchor", "middle"); label.setAttribute("dominant-baseline", "middle");
    label.setAttribute("font-size", "13");
    label.textContent = colors.length + " colours";
    svg.append(hole, label);
  }

  function recordItem(record) {
    return el("li", { "data-id": record.id },
      swatches(record.colors),
      el("span", { text: `${record.photoName} · ${record.colorCount}` }),
      el("button", { class: "favorite", title: record.isFavorite ? "Remove from favourites" : "Add to favourites",
        "aria-pressed": String(record.isFavorite), text: record.isFavorite ? "★" : "☆",
        onclick: () => act("POST", `/api/colors/history/${record.id}/favorite`) }),
      el("a", { class: "button", href: exportURL(record.id), download: true, text: "Export" }));
  }

  function exportURL(id) {
    const format = document.getElementById("colors-format").value || "json";
    return "/api/colors/export?format=" + format + (id ? "&id=" + id : "");
  }

  async function updateExport() {
    const link = document.getElementById("colors-download");
    const preview = document.getElementById("colors-export");
    const has = state && state.history.length > 0;
    link.classList.toggle("disabled", !has);
    link.href = exportURL();
    for (const a of document.querySelectorAll("#colors-history a, #colors-favorites a")) {
      a.href = exportURL(a.parentElement.dataset.id);
    }
    const format = document.getElementById("colors-format").value;
    preview.hidden = !has || format === "ase";
    if (preview.hidden) return;
    try { preview.textContent = await (await fetch(exportURL())).text(); } catch (e) { preview.textContent = ""; }
  }

  function render(snapshot) {
    state = snapshot;
    const $ = id => document.getElementById(id);
    const count = $("colors-count");
    count.min = snapshot.minColorCount; count.max = snapshot.maxColorCount;
    if (!busy) { count.value = snapshot.colorCount; $("colors-count-value").textContent = snapshot.colorCount; }
    $("colors-photo-name").textContent = snapshot.photoName ? "Photo: " + snapshot.photoName : "No photo chosen";
    const photo = $("colors-photo");
    photo.hidden = !snapshot.photoName;
    if (snapshot.photoName) photo.src = "/api/colors/photo?v=" + encodeURIComponent(snapshot.photoName) + "&t=" + Date.now();
    const formats = $("colors-format");
    if (!formats.options.length) for (const f of snapshot.formats) formats.append(el("option", { value: f, text: f.toUpperCase() }));
    wheel(snapshot.colors);
    const chips = $("colors-chips");
    chips.innerHTML = "";
    for (const c of snapshot.colors || []) chips.append(el("div", { class: "chip" }, el("span", { style: "background:" + c.hex }), el("code", { text: c.hex }), el("small", { text: `${(c.weight * 100).toFixed(1)}%` })));
    $("colors-history").replaceChildren(...snapshot.history.map(recordItem));
    if (!snapshot.history.length) $("colors-history").append(el("li", { class: "hint", text: "Nothing extracted yet" }));
    $("colors-favorites").replaceChildren(...snapshot.favorites.map(recordItem));
    if (!snapshot.favorites.length) $("colors-favorites").append(el("li", { class: "hint", text: "No favourites yet" }));
    renderBusy();
    updateExport();
  }

  async function fillStickerPhotos() {
    try {
      const stickers = await api("GET", "/api/stickers");
      const select = document.getElementById("colors-from-stickers");
      select.replaceChildren(el("option", { value: "", text: stickers.photos.length ? "or a photo of the Stickers tab…" : "(no photos in the Stickers tab)" }),
        ...stickers.photos.map(p => el("option", { value: p.id, text: p.name })));
    } catch (e) {}
  }

  tabs.colors = { shown: async () => {
    if (!root.dataset.ready) build();
    fillStickerPhotos();
    try { render(await api("GET", "/api/colors")); } catch (e) { showMessage(document.getElementById("colors-message"), e.message, true); }
  } };
})();
"""#

    static let spaceJS = #"""
(function () {
  tabs.space = { shown: () => {
    const root = document.getElementById("space-root");
    if (!root.dataset.ready) root.innerHTML = '<p class="hint">The space photo catalog is not available in this build yet.</p>';
  } };
})();
"""#
}
