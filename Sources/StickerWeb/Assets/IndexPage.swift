extension Assets {
    /// The single page: a tab bar and one section per app. Each tab's script fills its section.
    static let indexHTML = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stickers</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header>
  <h1>Stickers</h1>
  <nav role="tablist" aria-label="Apps">
    <button role="tab" id="tab-button-stickers" data-tab="stickers" aria-selected="true">Stickers</button>
    <button role="tab" id="tab-button-colors" data-tab="colors" aria-selected="false">Colors</button>
    <button role="tab" id="tab-button-space" data-tab="space" aria-selected="false">Space</button>
  </nav>
</header>
<main>
  <section id="tab-stickers" class="tab" role="tabpanel" aria-labelledby="tab-button-stickers">
    <div class="toolbar">
      <label class="button" for="upload">Add photos…</label>
      <input type="file" id="upload" accept="image/jpeg,image/png" multiple hidden>
      <button id="use-library" title="Add the photos of the server's library folder">Use library photos</button>
      <button id="process" class="primary">Process all</button>
      <button id="cancel" disabled>Cancel</button>
      <a id="download" class="button disabled" href="/api/stickers/pack.zip" download="stickers.zip">Download pack</a>
      <button id="clear">Clear</button>
    </div>
    <div id="sticker-message" class="message" role="status" aria-live="polite"></div>
    <div class="progress-row">
      <progress id="progress" max="1" value="0"></progress>
      <span id="progress-text">No photos yet</span>
    </div>
    <div id="carousel" class="carousel" hidden>
      <button id="carousel-prev" aria-label="Previous sticker">‹</button>
      <figure>
        <div class="carousel-images">
          <img id="carousel-sticker" class="checker" alt="">
          <img id="carousel-gradient" alt="">
        </div>
        <figcaption id="carousel-caption"></figcaption>
      </figure>
      <button id="carousel-next" aria-label="Next sticker">›</button>
    </div>
    <div id="grid" class="grid"></div>
    <p id="drop-hint" class="hint">Drop JPEG or PNG photos here, or use “Add photos…”.</p>
  </section>

  <section id="tab-colors" class="tab" role="tabpanel" aria-labelledby="tab-button-colors" hidden>
    <div id="colors-root"><p class="hint">Loading…</p></div>
  </section>

  <section id="tab-space" class="tab" role="tabpanel" aria-labelledby="tab-button-space" hidden>
    <div id="space-root"><p class="hint">Loading…</p></div>
  </section>
</main>
<script src="/app.js"></script>
</body>
</html>
"""#
}

/// The page's static files, as string constants compiled into the binary.
enum Assets {}
