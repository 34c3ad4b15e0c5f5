// The rules panel: a game's instructions (GamesmanUni's route 5, Markdown)
// turned into elements. Only what the games write is understood: headings,
// paragraphs, bulleted and numbered lists (nested by indentation), bold and
// italic. Text is never parsed as HTML, so a rules text cannot inject any.
"use strict";

// Appends `text` to `parent`, with **bold** and *italic* spans.
function inline(text, parent) {
  const parts = text.split(/(\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/);
  for (const p of parts) {
    if (!p) continue;
    if (p.startsWith("**") && p.endsWith("**") && p.length > 4) {
      const b = document.createElement("strong");
      b.textContent = p.slice(2, -2);
      parent.appendChild(b);
    } else if (p.startsWith("*") && p.endsWith("*") && p.length > 2) {
      const i = document.createElement("em");
      i.textContent = p.slice(1, -1);
      parent.appendChild(i);
    } else {
      parent.appendChild(document.createTextNode(p));
    }
  }
}

// The elements of a Markdown text, appended to `root`.
function renderRules(markdown, root) {
  root.replaceChildren();
  const lines = markdown.replace(/\r/g, "").split("\n");
  let para = null; // the paragraph being filled
  const lists = []; // open lists, outermost first: {indent, el}
  const closeLists = (indent) => {
    while (lists.length && lists[lists.length - 1].indent >= indent) lists.pop();
  };
  for (const line of lines) {
    if (!line.trim()) {
      para = null;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^(\s*)([*+-]|\d+\.)\s+(.*)$/.exec(line);
    if (heading) {
      para = null;
      closeLists(0);
      // The panel sits under the page's own h2s: its headings start at h3.
      const h = document.createElement(`h${Math.min(6, heading[1].length + 2)}`);
      inline(heading[2], h);
      root.appendChild(h);
    } else if (item) {
      para = null;
      const indent = item[1].length;
      const kind = /\d/.test(item[2]) ? "ol" : "ul";
      closeLists(indent + 1);
      let top = lists[lists.length - 1];
      if (!top || top.indent < indent || top.el.tagName.toLowerCase() !== kind) {
        if (top && top.indent === indent) lists.pop();
        const parent = lists.length ? lists[lists.length - 1].el.lastElementChild || root : root;
        const list = document.createElement(kind);
        parent.appendChild(list);
        top = { indent, el: list };
        lists.push(top);
      }
      const li = document.createElement("li");
      inline(item[3], li);
      top.el.appendChild(li);
    } else if (lists.length && /^\s+/.test(line)) {
      // A continuation of the last item.
      const li = lists[lists.length - 1].el.lastElementChild;
      inline(` ${line.trim()}`, li);
    } else {
      closeLists(0);
      if (!para) {
        para = document.createElement("p");
        root.appendChild(para);
      } else {
        para.appendChild(document.createTextNode(" "));
      }
      inline(line.trim(), para);
    }
  }
}
