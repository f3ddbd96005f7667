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
