extension Assets {
    static let appCSS = #"""
:root { --fg: #1d1d1f; --muted: #6e6e73; --line: #d8d8de; --accent: #5b3df5; --bad: #c62828; --bg: #f7f7fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 2rem; padding: .75rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.3rem; margin: 0; }
nav button { border: 0; background: none; font: inherit; padding: .5rem 1rem; border-radius: 999px; cursor: pointer; color: var(--muted); }
nav button[aria-selected="true"] { background: var(--accent); color: #fff; }
main { padding: 1rem 1.5rem 3rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: .75rem; }
button, .button { font: inherit; padding: .45rem .9rem; border: 1px solid var(--line); border-radius: 8px; background: #fff; color: var(--fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled, .button.disabled { opacity: .45; cursor: default; pointer-events: none; }
.message { min-height: 1.4em; margin: .25rem 0; }
.message.error { color: var(--bad); }
.progress-row { display: flex; align-items: center; gap: .75rem; margin: .5rem 0 1rem; }
progress { width: 320px; height: 12px; accent-color: var(--accent); }
.hint { color: var(--muted); }
.checker { background-color: #fff;
  background-image: linear-gradient(45deg, #ddd 25%, transparent 25%), linear-gradient(-45deg, #ddd 25%, transparent 25%),
                    linear-gradient(45deg, transparent 75%, #ddd 75%), linear-gradient(-45deg, transparent 75%, #ddd 75%);
  background-size: 16px 16px; background-position: 0 0, 0 8px, 8px -8px, -8px 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: .6rem; display: flex; flex-direction: column; gap: .5rem; position: relative; }
.card .images { display: grid; grid-template-columns: 1fr 1fr; gap: .4rem; }
.card img { width: 100%; height: 130px; object-fit: contain; border-radius: 8px; display: block; }
.card .thumb { grid-column: 1 / span 2; background: #eee; }
.card .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.card .status { font-size: .8rem; color: var(--muted); }
.card.invalid { border-color: var(--bad); background: #fff5f5; }
.card.invalid .status { color: var(--bad); font-weight: 600; }
.card .remove { position: absolute; top: .35rem; right: .35rem; padding: 0 .45rem; border-radius: 999px; line-height: 1.4; }
.placeholder { height: 130px; border-radius: 8px; background: linear-gradient(90deg, #eee, #f6f6f6, #eee); background-size: 200% 100%; animation: shimmer 1.2s infinite linear; grid-column: 1 / span 2; }
@keyframes shimmer { from { background-position: 200% 0; } to { background-position: 0 0; } }
.swatches { display: flex; height: 22px; border-radius: 6px; overflow: hidden; border: 1px solid var(--line); }
.swatches span { display: block; height: 100%; }
.carousel { display: flex; align-items: center; gap: .5rem; margin-bottom: 1.25rem; }
.carousel figure { margin: 0; flex: 1; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: .75rem; }
.carousel-images { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
.carousel-images img { width: 100%; height: 260px; object-fit: contain; border-radius: 10px; }
.carousel > button { font-size: 1.6rem; padding: .2rem .7rem; }
.drop-target { outline: 3px dashed var(--accent); outline-offset: 6px; }
/* Colors */
.colors-layout { display: grid; grid-template-columns: minmax(260px, 360px) 1fr; gap: 1.5rem; align-items: start; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1rem; }
.wheel { width: 320px; height: 320px; display: block; margin: 0 auto; }
.palette-row { display: flex; gap: .4rem; flex-wrap: wrap; margin: .5rem 0; }
.chip { display: flex; flex-direction: column; align-items: center; font: 12px ui-monospace, monospace; }
.chip span { width: 44px; height: 44px; border-radius: 8px; border: 1px solid var(--line); }
.history li { display: flex; gap: .5rem; align-items: center; margin: .3rem 0; }
.history .swatches { width: 180px; }
.spinner { display: inline-block; width: 1em; height: 1em; border: 2px solid var(--line); border-top-color: var(--accent); border-radius: 50%; animation: spin .8s linear infinite; vertical-align: middle; }
@keyframes spin { to { transform: rotate(360deg); } }
pre.export { background: #f2f2f5; padding: .6rem; border-radius: 8px; max-height: 200px; overflow: auto; font-size: 12px; }
/* Space */
.space-list { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 1rem; }
.space-item img, .space-item .placeholder { width: 100%; height: 180px; object-fit: cover; border-radius: 8px; }
.space-item p { font-size: .85rem; color: var(--muted); max-height: 5.6em; overflow: hidden; }
"""#
}
