"use strict";
// Stickers tab: photos in, live progress over server-sent events, results in a carousel and a grid.
(function () {
  const $ = id => document.getElementById(id);
  const message = $("sticker-message");
  let state = null;
  let events = null;
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
      images.append(el("img", { class: "sticker checker", src: clipStickers.stickerURL(photo), alt: "Sticker of " + photo.name }));
      images.append(el("img", { class: "gradient", src: imageURL(photo.id, "gradient.png"), alt: "Gradient sticker of " + photo.name }));
      status = el("div", { class: "status", text: "Sticker ready" });
    } else if (photo.status === "invalid" || photo.status === "failed") {
      // invalid: the photo cannot be used; failed: the engine could not run (not the photo's fault).
      images.append(el("div", { class: "placeholder", style: "animation:none;background:#f3dede" }));
      const prefix = photo.status === "failed" ? "⚙ Not made, the engine failed: " : "⚠ ";
      status = el("div", { class: "status reason", text: prefix + (photo.reason || "cannot be used") });
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
    // A clip's subject is followed through it: no subjects to pick and no brush edits (those are
    // of one frame); its style restyles every frame.
    if (photo.status === "processed") {
      node.append(...(photo.animated ? [] : [subjectsPicker(photo, node)]), styleControls(photo, node),
        ...(photo.animated ? [] : [editButton(photo, node)]));
    }
    return node;
  }

  // Reloads a card's sticker images (and the carousel's) after the server drew them again; a new
  // query string, so the browser cannot answer from its cache with the old image.
  function reloadImages(photo, node) {
    const version = "?v=" + Date.now();
    for (const img of node.querySelectorAll("img.sticker, img.gradient")) img.src = img.src.split("?")[0] + version;
    carousel.reload(photo.id, version);
  }

  // The photo's subjects, outlined over its thumbnail on hover; clicking one keeps it in the
  // sticker or leaves it out (the server re-cuts from the subjects it kept, no network run).
  function subjectsPicker(photo, node) {
    const picker = el("div", { class: "subjects", hidden: "",
      title: "Click a subject to keep it in the sticker or leave it out" });
    picker.append(el("img", { class: "subjects-photo", src: imageURL(photo.id, "original"), alt: "Subjects of " + photo.name }));
    let busy = false;
    function draw(list) {
      for (const box of picker.querySelectorAll(".subject-box")) box.remove();
      const percent = (value, whole) => (100 * value / whole) + "%";
      for (const subject of list.subjects) {
        const [x0, y0, x1, y1] = subject.bbox;
        const box = el("button", { type: "button", class: "subject-box" + (subject.chosen ? " chosen" : ""),
          "data-rank": String(subject.rank), "aria-pressed": String(subject.chosen),
          "aria-label": `Subject ${subject.rank} of ${photo.name}: ${subject.chosen ? "in" : "not in"} the sticker`,
          onclick: () => toggle(list, subject.rank) });
        Object.assign(box.style, { left: percent(x0, list.width), top: percent(y0, list.height),
          width: percent(x1 - x0, list.width), height: percent(y1 - y0, list.height) });
        picker.append(box);
      }
      picker.dataset.chosen = list.chosen.join(",");
      picker.hidden = list.subjects.length === 0;
    }
    async function toggle(list, rank) {
      if (busy) return;
      busy = true;
      const ranks = list.chosen.includes(rank) ? list.chosen.filter(r => r !== rank) : [...list.chosen, rank].sort((a, b) => a - b);
      try {
        draw(await api("PUT", `/api/stickers/photos/${photo.id}/subjects`, JSON.stringify({ ranks }),
          { "Content-Type": "application/json" }));
        showMessage(message, "");
        reloadImages(photo, node);
      } catch (e) { showMessage(message, e.message, true); }
      busy = false;
    }
    api("GET", `/api/stickers/photos/${photo.id}/subjects`).then(draw).catch(() => picker.remove());
    return picker;
  }

  // "Edit": the sticker editor (editor.js) on the photo as it is now; its images reloaded once saved.
  function editButton(photo, node) {
    const latest = () => (state && state.photos.find(p => p.id === photo.id)) || photo;
    return el("button", { type: "button", class: "edit", text: "Edit", "aria-label": "Edit the sticker of " + photo.name,
      onclick: () => stickerEditor.open(latest(), snapshot => {
        if (snapshot) render(snapshot);
        reloadImages(photo, node);
      }) });
  }

  // Per-sticker style: each change is sent at once (the server redraws from the kept cut-out in
  // tens of milliseconds) and the images reloaded; changes made meanwhile go in one later request.
  function styleControls(photo, node) {
    const style = photo.style || {};
    const label = (text, control) => el("label", {}, el("span", { text }), control);
    const effect = el("select", { name: "effect", "aria-label": "Effect for " + photo.name },
      ...[["", "Plain"], ["comic", "Comic"], ["puffy", "Puffy"]].map(([value, text]) => el("option", { value, text })));
    effect.value = style.effect || "";
    const outline = el("input", { type: "range", name: "outline", min: "0", max: "60", step: "1",
      value: String(style.outline == null ? 10 : style.outline), "aria-label": "Outline width for " + photo.name });
    const width = el("output", { text: style.outline == null ? "auto" : style.outline + " px" });
    let outlineChosen = style.outline != null;
    const color = el("input", { type: "color", name: "outlineColor", value: (style.outlineColor || "#FFFFFF").toLowerCase(),
      "aria-label": "Outline colour for " + photo.name });
    const shadow = el("input", { type: "checkbox", name: "shadow", "aria-label": "Shadow for " + photo.name });
    shadow.checked = !!style.shadow;
    const controls = el("form", { class: "style-controls", onsubmit: e => e.preventDefault() },
      label("Effect", effect), label("Outline", el("span", { class: "range" }, outline, width)),
      label("Colour", color), label("Shadow", shadow));
    let busy = false, again = false;
    async function send() {
      if (busy) { again = true; return; }
      busy = true;
      const body = { outline: outlineChosen ? Number(outline.value) : null, outlineColor: color.value,
        shadow: shadow.checked, effect: effect.value || null };
      try {
        await api("PUT", `/api/stickers/photos/${photo.id}/style`, JSON.stringify(body), { "Content-Type": "application/json" });
        showMessage(message, "");
        reloadImages(photo, node);
      } catch (e) { showMessage(message, e.message, true); }
      busy = false;
      if (again) { again = false; send(); }
    }
    outline.addEventListener("input", () => { outlineChosen = true; width.textContent = outline.value + " px"; send(); });
    for (const control of [effect, color, shadow]) control.addEventListener("change", send);
    color.addEventListener("input", send);
    return controls;
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
    // Photos the engine failed on are tried again by the next run.
    const pending = snapshot.photos.some(p => p.status === "pending" || p.status === "failed");
    if (snapshot.engineFailure) showMessage(message, "The cut-out engine cannot run: " + snapshot.engineFailure, true);
    $("process").disabled = snapshot.isProcessing || !pending;
    $("cancel").disabled = !snapshot.isProcessing;
    $("use-library").disabled = !snapshot.hasLibrary || snapshot.isProcessing;
    const processedCount = snapshot.photos.filter(p => p.status === "processed" && !p.animated).length;
    // The ZIP pack holds the clips too (their animated WebP); the messengers' still packs do not.
    $("download").classList.toggle("disabled", !snapshot.photos.some(p => p.status === "processed"));
    clipStickers.renderMenus(snapshot, setMenuItemEnabled);
    // Each app's sticker counts come from the server (MessengerPlatform's rules), never restated here.
    for (const { platform, name, minStickers: least, maxStickers: most } of snapshot.platforms) {
      const fits = processedCount >= least && processedCount <= most;
      setMenuItemEnabled($("download-" + platform), fits,
        `A ${name} pack holds ${least} to ${most} stickers; ${processedCount} ${processedCount === 1 ? "is" : "are"} made`);
    }
    $("drop-hint").hidden = total > 0;
    renderCarousel();
  }

  // "Download for …": a disclosure menu (details/summary: Enter or Space opens it, Tab or the
  // arrow keys move through its apps, Escape or a click elsewhere closes it).
  const downloadMenu = $("download-for");
  const menuItems = () => [...downloadMenu.querySelectorAll(".menu-list a:not(.disabled)")];

  function setMenuItemEnabled(link, enabled, why) {
    link.classList.toggle("disabled", !enabled);
    link.setAttribute("aria-disabled", String(!enabled));
    link.tabIndex = enabled ? 0 : -1;
    link.title = enabled ? "" : why;
  }

  function closeDownloadMenu(focusSummary) {
    if (!downloadMenu.open) return;
    downloadMenu.open = false;
    if (focusSummary) downloadMenu.querySelector("summary").focus();
  }

  downloadMenu.addEventListener("click", e => {
    const link = e.target.closest(".menu-list a");
    if (!link) return;
    if (link.classList.contains("disabled")) { e.preventDefault(); return; }
    closeDownloadMenu(true);
  });
  downloadMenu.addEventListener("keydown", e => {
    if (e.key === "Escape") { e.preventDefault(); closeDownloadMenu(true); return; }
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    if (!downloadMenu.open) downloadMenu.open = true;
    const items = menuItems();
    if (!items.length) return;
    const at = items.indexOf(document.activeElement);
    const next = e.key === "ArrowDown" ? (at + 1) % items.length : (at <= 0 ? items.length - 1 : at - 1);
    items[next].focus();
  });
  document.addEventListener("click", e => { if (!downloadMenu.contains(e.target)) closeDownloadMenu(false); });
  downloadMenu.addEventListener("focusout", e => {
    if (e.relatedTarget && !downloadMenu.contains(e.relatedTarget)) closeDownloadMenu(false);
  });

  const carousel = createCarousel({ strip: $("carousel-strip"), caption: $("carousel-caption"),
    previous: $("carousel-prev"), next: $("carousel-next") });

  function renderCarousel() {
    const done = state ? state.photos.filter(p => p.status === "processed") : [];
    $("carousel").hidden = done.length === 0;
    carousel.show(done.map(photo => ({ key: photo.id, name: photo.name, src: clipStickers.stickerURL(photo) })));
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
  const tab = $("tab-stickers");
  tab.addEventListener("dragover", e => { e.preventDefault(); tab.classList.add("drop-target"); });
  tab.addEventListener("dragleave", () => tab.classList.remove("drop-target"));
  tab.addEventListener("drop", e => { e.preventDefault(); tab.classList.remove("drop-target"); upload([...e.dataTransfer.files]); });
  tabs.stickers = { shown: refresh, watch: () => { refresh().then(watch); }, carousel };
  refresh().then(() => { if (state && state.isProcessing) watch(); });
})();
