"use strict";
// Colors tab: pick a photo, 3…10 colours and a mood, extract (with a loading state), a wheel of
// wedges, named swatches with readable text, the WCAG contrast grid, history, exports.
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
            <input type="file" id="colors-upload" accept="image/jpeg,image/png,image/webp" hidden>
            <select id="colors-from-stickers" aria-label="Or a photo of the Stickers tab"><option value="">or a photo of the Stickers tab…</option></select>
          </div>
          <img id="colors-photo" alt="" hidden style="width:100%;max-height:220px;object-fit:contain;border-radius:8px;background:#eee">
          <p id="colors-photo-name" class="hint">No photo chosen</p>
          <label for="colors-count">Colours: <output id="colors-count-value">5</output></label>
          <input type="range" id="colors-count" min="3" max="10" value="5" style="width:100%">
          <label for="colors-mood">Mood</label>
          <select id="colors-mood"><option value="">Dominant colours</option></select>
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
            <details id="colors-contrast-box" hidden>
              <summary>Contrast (WCAG 2.x): AAA ≥ 7, AA ≥ 4.5, AA18 ≥ 3 for large text only</summary>
              <table id="colors-contrast" class="contrast-grid"></table>
            </details>
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
    const mood = document.getElementById("colors-mood").value;
    busy = true;
    renderBusy();
    try { await act("POST", "/api/colors/extract?count=" + count + (mood ? "&mood=" + mood : "")); } finally { busy = false; renderBusy(); }
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

  // WCAG 2.x contrast of two #RRGGBB colours, as the server computes it.
  function luminance(hex) {
    const channel = i => { const c = parseInt(hex.slice(i, i + 2), 16) / 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  }
  function contrast(a, b) {
    const [x, y] = [luminance(a), luminance(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function level(ratio) { return ratio >= 7 ? "AAA" : ratio >= 4.5 ? "AA" : ratio >= 3 ? "AA18" : "–"; }

  // Each colour's text drawn on each colour: the ratio and the level it reaches.
  function contrastGrid(colors) {
    const box = document.getElementById("colors-contrast-box");
    const table = document.getElementById("colors-contrast");
    box.hidden = !colors || colors.length < 2;
    if (box.hidden) { table.replaceChildren(); return; }
    const head = el("tr", {}, el("th", { text: "text ╲ on" }), ...colors.map(c => el("th", { style: `background:${c.hex};color:${c.textColor}`, text: c.hex })));
    const rows = colors.map(text => el("tr", {}, el("th", { style: `background:${text.hex};color:${text.textColor}`, text: text.hex }),
      ...colors.map(back => {
        const ratio = contrast(text.hex, back.hex);
        return el("td", { style: `background:${back.hex};color:${text.hex}`, title: `${text.hex} on ${back.hex}: ${ratio.toFixed(2)}:1`,
          "data-level": level(ratio) }, el("b", { text: "Aa" }), el("small", { text: ` ${ratio.toFixed(2)} ${level(ratio)}` }));
      })));
    table.replaceChildren(head, ...rows);
  }

  function recordItem(record) {
    return el("li", { "data-id": record.id },
      swatches(record.colors),
      el("span", { text: `${record.photoName} · ${record.colorCount}` + (record.mood ? ` · ${record.mood}` : "") }),
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
    preview.hidden = !has || ["ase", "aco", "procreate"].includes(format);
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
    const moods = $("colors-mood");
    if (moods.options.length === 1) for (const m of snapshot.moods || []) moods.append(el("option", { value: m, text: m[0].toUpperCase() + m.slice(1) }));
    if (!busy) moods.value = snapshot.mood || "";
    wheel(snapshot.colors);
    const chips = $("colors-chips");
    chips.innerHTML = "";
    for (const c of snapshot.colors || []) {
      chips.append(el("div", { class: "chip", title: `${c.name}: ${c.contrast.white.toFixed(2)}:1 on white, ${c.contrast.black.toFixed(2)}:1 on black` },
        el("span", { style: `background:${c.hex};color:${c.textColor}`, text: c.hex }),
        el("small", { class: "name", text: c.name }),
        el("small", { text: `${(c.weight * 100).toFixed(1)}%` })));
    }
    contrastGrid(snapshot.colors);
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
