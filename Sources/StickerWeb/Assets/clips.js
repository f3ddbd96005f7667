"use strict";
// Clips in the Stickers tab: a clip's sticker is an animated WebP, which an <img> plays by itself
// (its sticker.png is the first frame); its animated packs are menu items of their own, since a
// messaging app's animated stickers go in packs apart from the stills.
const clipStickers = {
  // The image a processed photo's card, carousel and grid show: the animation for a clip.
  stickerURL(photo) {
    return `/api/stickers/photos/${photo.id}/${photo.animated ? "sticker.webp" : "sticker.png"}`;
  },

  // Enables each "… (animated)" menu item when the processed clips fit that app's pack counts
  // (the same counts the still packs have, read from the server); the still items count stills.
  renderMenus(snapshot, setMenuItemEnabled) {
    const clips = snapshot.photos.filter(p => p.status === "processed" && p.animated).length;
    for (const { platform, name, minStickers: least, maxStickers: most } of snapshot.platforms) {
      const link = document.getElementById(`download-${platform}-animated`);
      if (!link) continue;
      link.parentElement.hidden = clips === 0;
      setMenuItemEnabled(link, clips >= least && clips <= most,
        `An animated ${name} pack holds ${least} to ${most} stickers; ${clips} ${clips === 1 ? "clip is" : "clips are"} made`);
    }
  },
};
