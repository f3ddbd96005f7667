"use strict";
// Space tab: space photos (random, a chosen day or a range) listed with lazily loaded images
// behind placeholders; favourites, video days with their thumbnail and a link, a note when the
// service cannot be reached and photos seen before are shown; save to the library, then make a
// sticker of a saved photo.
(function () {
  const root = document.getElementById("space-root");
  let loading = false;

  function build() {
    root.innerHTML = `
      <div class="toolbar">
        <button id="space-refresh" class="primary">Refresh</button>
        <label><input type="checkbox" id="space-hd"> Save in high resolution</label>
        <span id="space-loading" hidden><span class="spinner"></span> Loading space photos…</span>
        <span id="space-library" class="hint"></span>
      </div>
      <div class="toolbar">
        <label>Day <input type="date" id="space-date"></label>
        <button id="space-show-day">Show day</button>
        <label>From <input type="date" id="space-start"></label>
        <label>to <input type="date" id="space-end"></label>
        <button id="space-show-range">Show range</button>
      </div>
      <div id="space-message" class="message" role="status" aria-live="polite"></div>
      <p id="space-note" class="hint" hidden></p>
      <div id="space-list" class="space-list"></div>
      <h3>Favourites</h3>
      <div id="space-favorites" class="space-favorites"></div>`;
    const $ = id => document.getElementById(id);
    $("space-refresh").addEventListener("click", () => refresh(""));
    $("space-show-day").addEventListener("click", () => { if ($("space-date").value) refresh("?date=" + $("space-date").value); });
    $("space-show-range").addEventListener("click", () => {
      if (!$("space-start").value) return;
      refresh("?start=" + $("space-start").value + ($("space-end").value ? "&end=" + $("space-end").value : ""));
    });
    root.dataset.ready = "1";
  }

  async function act(method, url) {
    const message = document.getElementById("space-message");
    try {
      const snapshot = await api(method, url);
      showMessage(message, "");
      return snapshot;
    } catch (e) {
      showMessage(message, e.message, true);
      try { render(await api("GET", "/api/space")); } catch (ignored) {}
      return null;
    }
  }

  async function refresh(query) {
    loading = true;
    renderLoading();
    try {
      const snapshot = await act("POST", "/api/space/refresh" + (query || ""));
      if (snapshot) render(snapshot);
    } finally { loading = false; renderLoading(); }
  }

  function renderLoading() {
    document.getElementById("space-loading").hidden = !loading;
    for (const id of ["space-refresh", "space-show-day", "space-show-range"]) document.getElementById(id).disabled = loading;
  }

  function favoriteButton(photo) {
    return el("button", { class: "favorite", title: photo.isFavorite ? "Remove from favourites" : "Add to favourites",
      "aria-pressed": String(photo.isFavorite), text: photo.isFavorite ? "★" : "☆",
      onclick: async () => { const snapshot = await act("POST", `/api/space/photos/${encodeURIComponent(photo.id)}/favorite`); if (snapshot) render(snapshot); } });
  }

  function item(photo) {
    const node = el("article", { class: "card space-item", "data-id": photo.id, "data-saved": String(photo.isSaved) });
    const placeholder = el("div", { class: "placeholder" });
    node.append(placeholder);
    if (photo.previewURL) {
      const image = el("img", { loading: "lazy", alt: photo.title, src: photo.previewURL, hidden: true });
      image.addEventListener("load", () => { image.hidden = false; placeholder.remove(); });
      image.addEventListener("error", () => { placeholder.style.animation = "none"; placeholder.textContent = "image unavailable"; });
      node.append(image);
    } else {
      placeholder.style.animation = "none";
    }
    node.append(
      el("div", { class: "name", text: photo.title, title: photo.title }),
      el("div", { class: "status", text: photo.date + (photo.mediaType === "video" ? " · video" : "") + (photo.copyright ? " · © " + photo.copyright.trim() : "") }),
      el("p", { text: photo.description }));
    const actions = el("div", { class: "toolbar" }, favoriteButton(photo));
    if (photo.videoURL) actions.append(el("a", { class: "button video", href: photo.videoURL, target: "_blank", rel: "noopener", text: "Watch video ↗" }));
    if (photo.unsavableReason) {
      actions.append(el("span", { class: "hint", text: "Cannot be saved: " + photo.unsavableReason }));
    } else if (!photo.isSaved) {
      actions.append(el("button", { class: "save", text: photo.isSaving ? "Saving…" : "Save to library", disabled: photo.isSaving,
        onclick: async e => {
          e.target.disabled = true; e.target.textContent = "Saving…";
          const hd = document.getElementById("space-hd").checked ? "?hd=1" : "";
          const snapshot = await act("POST", `/api/space/photos/${encodeURIComponent(photo.id)}/save${hd}`);
          if (snapshot) render(snapshot); else { e.target.disabled = false; e.target.textContent = "Save to library"; }
        } }));
    } else {
      actions.append(el("span", { class: "saved", text: "Saved ✓" }),
        el("button", { class: "make-sticker primary", text: "Make sticker",
          onclick: async () => {
            if (await act("POST", `/api/space/photos/${encodeURIComponent(photo.id)}/sticker`)) {
              selectTab("stickers");
              tabs.stickers.watch();
            }
          } }));
    }
    node.append(actions);
    return node;
  }

  function render(snapshot) {
    document.getElementById("space-library").textContent = "Saved photos go to " + snapshot.libraryPath;
    const list = document.getElementById("space-list");
    list.replaceChildren(...snapshot.items.map(item));
    if (!snapshot.items.length) list.append(el("p", { class: "hint", text: snapshot.hasLoaded ? "No photos listed." : "Loading…" }));
    if (snapshot.error) showMessage(document.getElementById("space-message"), snapshot.error, true);
    const note = document.getElementById("space-note");
    const notes = [];
    if (snapshot.isShowingSeenBefore) notes.push("The space photo service cannot be reached: these are photos seen before.");
    if (snapshot.failedDays && snapshot.failedDays.length) notes.push("Skipped (the service kept failing): " + snapshot.failedDays.map(d => d.date).join(", ") + ".");
    note.textContent = notes.join(" ");
    note.hidden = !notes.length;
    for (const id of ["space-date", "space-start", "space-end"]) {
      const input = document.getElementById(id);
      input.min = snapshot.firstDay; input.max = snapshot.today;
    }
    const favorites = document.getElementById("space-favorites");
    favorites.replaceChildren(...(snapshot.favorites || []).map(photo => el("div", { class: "space-favorite", "data-id": photo.id },
      photo.previewURL ? el("img", { loading: "lazy", alt: photo.title, src: photo.previewURL }) : null,
      el("span", { text: `${photo.date} · ${photo.title}` }), favoriteButton(photo),
      photo.videoURL ? el("a", { href: photo.videoURL, target: "_blank", rel: "noopener", text: "video ↗" }) : null)));
    if (!favorites.children.length) favorites.append(el("p", { class: "hint", text: "No favourites yet" }));
  }

  tabs.space = { shown: async () => {
    if (!root.dataset.ready) build();
    try {
      const snapshot = await api("GET", "/api/space");
      render(snapshot);
      if (!snapshot.hasLoaded && !loading) refresh("");
    } catch (e) { showMessage(document.getElementById("space-message"), e.message, true); }
  } };
})();
