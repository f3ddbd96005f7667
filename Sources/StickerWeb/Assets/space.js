"use strict";
// Space tab: space photos listed with lazily loaded images behind placeholders; refresh, save to
// the library, then make a sticker of a saved photo.
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
      <div id="space-message" class="message" role="status" aria-live="polite"></div>
      <div id="space-list" class="space-list"></div>`;
    document.getElementById("space-refresh").addEventListener("click", refresh);
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

  async function refresh() {
    loading = true;
    renderLoading();
    try {
      const snapshot = await act("POST", "/api/space/refresh");
      if (snapshot) render(snapshot);
    } finally { loading = false; renderLoading(); }
  }

  function renderLoading() {
    document.getElementById("space-loading").hidden = !loading;
    document.getElementById("space-refresh").disabled = loading;
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
    const actions = el("div", { class: "toolbar" });
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
  }

  tabs.space = { shown: async () => {
    if (!root.dataset.ready) build();
    try {
      const snapshot = await api("GET", "/api/space");
      render(snapshot);
      if (!snapshot.hasLoaded && !loading) refresh();
    } catch (e) { showMessage(document.getElementById("space-message"), e.message, true); }
  } };
})();
