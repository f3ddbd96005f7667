"use strict";
// The sticker editor: the cut-out over a checkerboard, erase / restore brushes (pointer events:
// mouse, pen and touch), undo / redo (buttons, Ctrl+Z, Ctrl+Shift+Z), a tap that picks the subject
// under it, and a caption. The page keeps the stroke list and its undo history; Save sends the
// whole list (and the caption) and the server draws the sticker from the cut-out it kept — no
// network run. The preview replays the strokes as the server does: in order, a later one wins.
const stickerEditor = (function () {
  const MAX_SIDE = 1024;           // the canvas's longer side: the strokes' pixels
  let session = null;              // the open editor, one at a time

  function loadImage(src) {
    return new Promise((resolve, reject) => {
      const image = new Image();
      image.onload = () => resolve(image);
      image.onerror = () => reject(new Error("cannot load " + src));
      image.src = src;
    });
  }

  // The mask (grey, 255 = subject) as an alpha-only canvas of the editor's size.
  function alphaCanvas(mask, width, height) {
    const canvas = document.createElement("canvas");
    canvas.width = width; canvas.height = height;
    const context = canvas.getContext("2d");
    context.drawImage(mask, 0, 0, width, height);
    const pixels = context.getImageData(0, 0, width, height);
    const data = pixels.data;
    for (let i = 0; i < data.length; i += 4) { data[i + 3] = data[i]; data[i] = data[i + 1] = data[i + 2] = 0; }
    context.putImageData(pixels, 0, 0);
    return canvas;
  }

  // Strokes stored at another size, in this canvas's pixels.
  function scaled(edits, width, height) {
    if (!edits || !edits.strokes.length || !edits.width) return [];
    const sx = width / edits.width, sy = height / edits.height;
    return edits.strokes.map(s => ({ mode: s.mode, radius: Math.max(1, Math.round(s.radius * (sx + sy) / 2)),
      points: s.points.map(([x, y]) => [Math.round(x * sx), Math.round(y * sy)]) }));
  }

  function open(photo, onSaved) {
    if (session) session.close();
    const id = photo.id, base = `/api/stickers/photos/${id}`;
    const label = (text, control) => el("label", {}, el("span", { text }), control);
    const canvas = el("canvas", { class: "editor-canvas checker", role: "img", tabindex: "0",
      "aria-label": `The cut-out of ${photo.name}: paint on it with the chosen brush` });
    const status = el("p", { class: "editor-status", role: "status", "aria-live": "polite" });
    const tool = name => el("input", { type: "radio", name: "editor-tool", value: name });
    const erase = tool("erase"), restore = tool("restore"), pick = tool("pick");
    erase.checked = true;
    const size = el("input", { type: "range", name: "brush-size", min: "2", max: "120", value: "24",
      "aria-label": "Brush size" });
    const sizeText = el("output", { text: "24 px" });
    const ghost = el("input", { type: "checkbox", name: "show-photo", "aria-label": "Show the photo behind the cut-out" });
    ghost.checked = true;
    const undo = el("button", { type: "button", class: "editor-undo", text: "Undo", "aria-keyshortcuts": "Control+Z" });
    const redo = el("button", { type: "button", class: "editor-redo", text: "Redo", "aria-keyshortcuts": "Control+Shift+Z" });
    const caption = photo.caption || {};
    const text = el("input", { type: "text", name: "caption", maxlength: "200", value: caption.text || "",
      placeholder: "Caption (optional)", "aria-label": "Caption text" });
    const position = el("select", { name: "caption-position", "aria-label": "Caption position" },
      el("option", { value: "top", text: "Top" }), el("option", { value: "bottom", text: "Bottom" }));
    position.value = caption.position || "bottom";
    const color = el("input", { type: "color", name: "caption-color", value: (caption.color || "#FFFFFF").toLowerCase(),
      "aria-label": "Caption colour" });
    const save = el("button", { type: "button", class: "primary editor-save", text: "Save" });
    const cancel = el("button", { type: "button", class: "editor-cancel", text: "Cancel" });
    const tools = el("fieldset", { class: "editor-tools" }, el("legend", { text: "Brush" }),
      label("Erase", erase), label("Restore", restore), label("Tap a subject", pick),
      label("Size", el("span", { class: "range" }, size, sizeText)), label("Photo behind", ghost), undo, redo);
    const captionFields = el("fieldset", { class: "editor-caption" }, el("legend", { text: "Caption" }),
      text, label("Where", position), label("Colour", color));
    const dialog = el("dialog", { class: "editor", "aria-label": "Edit the sticker of " + photo.name },
      el("h2", { text: "Edit " + photo.name }), el("div", { class: "editor-stage" }, canvas), tools, captionFields,
      status, el("div", { class: "editor-actions" }, cancel, save));
    document.body.append(dialog);

    let strokes = [], redone = [], current = null, photoImage = null, alpha = null, saved = "", busy = false, changed = false;
    let maskSize = [1, 1];
    const work = document.createElement("canvas");

    // Three layers: `committed`, the cut-out's alpha with the finished strokes (redrawn only when
    // they change: undo, redo, a finished stroke, a new mask); `work`, that plus the stroke being
    // painted, filled with the photo; the view, the faint photo, `work` and the brush's ring.
    const committed = document.createElement("canvas");
    let committedFor = null, hover = null;
    function paintStroke(context, stroke) {
      context.globalCompositeOperation = stroke.mode === "erase" ? "destination-out" : "source-over";
      context.strokeStyle = context.fillStyle = "#000";
      context.lineWidth = stroke.radius * 2;
      context.lineCap = context.lineJoin = "round";
      context.beginPath();
      const [first, ...rest] = stroke.points;
      if (!rest.length) { context.arc(first[0] + .5, first[1] + .5, stroke.radius, 0, Math.PI * 2); context.fill(); return; }
      context.moveTo(first[0] + .5, first[1] + .5);
      for (const [x, y] of rest) context.lineTo(x + .5, y + .5);
      context.stroke();
    }
    function compose() {
      if (committedFor !== strokes.length + ":" + JSON.stringify(strokes[strokes.length - 1] || null) + ":" + alphaVersion) {
        committed.width = canvas.width; committed.height = canvas.height;
        const context = committed.getContext("2d");
        context.globalCompositeOperation = "copy";
        context.drawImage(alpha, 0, 0);
        for (const stroke of strokes) paintStroke(context, stroke);
        committedFor = strokes.length + ":" + JSON.stringify(strokes[strokes.length - 1] || null) + ":" + alphaVersion;
      }
      const context = work.getContext("2d");
      context.globalCompositeOperation = "copy";
      context.drawImage(committed, 0, 0);
      if (current) paintStroke(context, current);
      context.globalCompositeOperation = "source-in";
      context.drawImage(photoImage, 0, 0, work.width, work.height);
    }
    function show() {
      const view = canvas.getContext("2d");
      view.clearRect(0, 0, canvas.width, canvas.height);
      if (ghost.checked) { view.globalAlpha = .25; view.drawImage(photoImage, 0, 0, canvas.width, canvas.height); view.globalAlpha = 1; }
      view.drawImage(work, 0, 0);
      if (hover && !pick.checked) {
        view.lineWidth = Math.max(1, canvas.width / canvas.getBoundingClientRect().width);
        view.strokeStyle = restore.checked ? "#2fbf71" : "#c62828";
        view.beginPath();
        view.arc(hover[0] + .5, hover[1] + .5, radius(), 0, Math.PI * 2);
        view.stroke();
      }
    }
    function draw() {
      if (!alpha) return;
      compose();
      show();
      undo.disabled = !strokes.length;
      redo.disabled = !redone.length;
      canvas.dataset.strokes = String(strokes.length);
    }

    let alphaVersion = 0;
    async function loadMask() {
      const mask = await loadImage(`${base}/mask.png?v=${Date.now()}`);
      alpha = alphaCanvas(mask, canvas.width, canvas.height);
      alphaVersion += 1;
    }

    async function start() {
      status.textContent = "Loading…";
      try {
        const [image, mask, edits] = await Promise.all([loadImage(`${base}/original`), loadImage(`${base}/mask.png?v=${Date.now()}`),
          api("GET", `${base}/edits`)]);
        // The canvas has the photo's shape (the mask's: the photo as processed), at most MAX_SIDE a side.
        const scale = Math.min(1, MAX_SIDE / Math.max(mask.naturalWidth, mask.naturalHeight));
        canvas.width = work.width = Math.max(1, Math.round(mask.naturalWidth * scale));
        canvas.height = work.height = Math.max(1, Math.round(mask.naturalHeight * scale));
        photoImage = image;
        maskSize = [mask.naturalWidth, mask.naturalHeight];
        alpha = alphaCanvas(mask, canvas.width, canvas.height);
        strokes = scaled(edits, canvas.width, canvas.height);
        saved = JSON.stringify(strokes);
        status.textContent = "";
        dialog.dataset.ready = "true";
        draw();
      } catch (e) { status.textContent = e.message; }
    }

    function point(event) {
      const box = canvas.getBoundingClientRect();
      return [Math.round((event.clientX - box.left) / box.width * canvas.width - .5),
              Math.round((event.clientY - box.top) / box.height * canvas.height - .5)];
    }
    // The brush's radius in canvas pixels: the slider is in screen pixels.
    const radius = () => Math.max(1, Math.round(Number(size.value) / 2 * canvas.width / canvas.getBoundingClientRect().width));

    canvas.addEventListener("pointerdown", event => {
      if (!alpha || busy || event.button > 0) return;
      event.preventDefault();
      if (pick.checked) { pickSubject(point(event)); return; }
      canvas.setPointerCapture(event.pointerId);
      current = { mode: restore.checked ? "restore" : "erase", radius: radius(), points: [point(event)] };
      draw();
    });
    canvas.addEventListener("pointermove", event => {
      hover = point(event);
      if (!current) { if (alpha) show(); return; }
      const [x, y] = point(event), last = current.points[current.points.length - 1];
      // Points closer than a third of the brush add nothing the round caps do not cover.
      if (Math.hypot(x - last[0], y - last[1]) < Math.max(1, current.radius / 3)) return;
      current.points.push([x, y]);
      draw();
    });
    function endStroke() {
      if (!current) return;
      strokes.push(current);
      current = null;
      redone = [];
      draw();
    }
    canvas.addEventListener("pointerup", endStroke);
    canvas.addEventListener("pointerleave", () => { hover = null; if (alpha) show(); });
    canvas.addEventListener("pointercancel", endStroke);

    function step(from, to) {
      if (!from.length) return;
      to.push(from.pop());
      draw();
    }
    undo.addEventListener("click", () => step(strokes, redone));
    redo.addEventListener("click", () => step(redone, strokes));
    dialog.addEventListener("keydown", event => {
      if (event.target === text) return;  // the caption field has its own undo
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
        event.preventDefault();
        if (event.shiftKey) step(redone, strokes); else step(strokes, redone);
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "y") {
        event.preventDefault();
        step(redone, strokes);
      }
    });
    size.addEventListener("input", () => { sizeText.textContent = size.value + " px"; });
    ghost.addEventListener("change", draw);

    // A tap with "Tap a subject": the subject under it becomes the cut-out (a closer look, with the
    // network, when the first one found nothing there: it may take a few seconds).
    async function pickSubject([x, y]) {
      busy = true;
      status.textContent = "Looking for the subject there…";
      try {
        // The subjects' pixels are the mask's (the photo as processed).
        const at = [Math.round(x * maskSize[0] / canvas.width), Math.round(y * maskSize[1] / canvas.height)];
        await api("PUT", `${base}/subjects`, JSON.stringify({ point: at }), { "Content-Type": "application/json" });
        await loadMask();
        status.textContent = "Subject chosen.";
        changed = true;
        draw();
      } catch (e) { status.textContent = e.message; }
      busy = false;
    }

    function close() {
      dialog.close();
      dialog.remove();
      session = null;
      if (changed && onSaved) onSaved(null);
    }
    cancel.addEventListener("click", close);
    dialog.addEventListener("cancel", event => { event.preventDefault(); close(); });

    save.addEventListener("click", async () => {
      if (busy) return;
      busy = true;
      save.disabled = true;
      status.textContent = "Saving…";
      try {
        let snapshot = null;
        if (JSON.stringify(strokes) !== saved) {
          snapshot = await api("PUT", `${base}/edits`, JSON.stringify({ width: canvas.width, height: canvas.height, strokes }),
            { "Content-Type": "application/json" });
        }
        const wanted = { text: text.value, position: position.value, color: color.value.toUpperCase() };
        const had = { text: caption.text || "", position: caption.position || "bottom", color: (caption.color || "#FFFFFF").toUpperCase() };
        if (JSON.stringify(wanted) !== JSON.stringify(had)) {
          snapshot = await api("PUT", `${base}/caption`, JSON.stringify(wanted), { "Content-Type": "application/json" });
        }
        dialog.close();
        dialog.remove();
        session = null;
        if (onSaved) onSaved(snapshot);
      } catch (e) {
        status.textContent = e.message;
        save.disabled = false;
      }
      busy = false;
    });

    session = { close };
    dialog.showModal();
    start();
  }

  return { open };
})();
