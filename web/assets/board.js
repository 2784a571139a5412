// The board as SVG, drawn from the lowered rules the server sends (places, owners, the shape) and the
// position. A shape is a layout: where each place goes. One, two, three and four rows and a ring have their
// own; any other shape (a new one the language gains) falls back to rows of pits, so it is drawn before it
// is known here. On a narrow screen a board of rows is drawn turned a quarter (its rows upright), so that
// every pit is a target a finger can hit.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#d84339", "#2f6fd0", "#2e9e4f", "#e0b020", "#a0a0a0", "#8e44ad", "#12939a", "#e8702a"];
  const KIND_COLOURS = ["#6d4c41", "#546e7a", "#c0ca33", "#8d6e63", "#26a69a", "#ab47bc"];
  const PIT = 34; // the radius of a pit
  const STEP = 84; // from one pit's centre to the next
  const MAX_BALLS = 3; // up to this many pieces of several kinds are drawn as balls; more, as counts per kind

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function seatColour(seat) {
    return seat === null || seat === undefined ? "#8a7a66" : SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  function kindColour(kind, index) {
    return kind.owner === null ? KIND_COLOURS[index % KIND_COLOURS.length] : seatColour(kind.owner);
  }

  // The shape's name and fields: {"TwoRows": {"pits": 6, "stores": true}} -> ["TwoRows", {...}].
  function shapeOf(board) {
    const shape = board.shape || {};
    const name = typeof shape === "string" ? shape : Object.keys(shape)[0];
    return [name, typeof shape === "string" ? {} : shape[name] || {}];
  }

  // Where each place goes: {x, y, store} by index; places left out are drawn as trays below (on a ring,
  // a single place nobody owns goes in its middle).
  function layout(board, viewer) {
    const [name, shape] = shapeOf(board);
    const n = board.pits;
    const at = {};
    if (name === "TwoRows" && 2 * shape.pits === n) {
      const w = shape.pits;
      const near = viewer === 1 ? w : 0;
      const far = viewer === 1 ? 0 : w;
      for (let i = 0; i < w; i++) {
        at[near + i] = { x: STEP * (i + 1), y: STEP * 2.1 };
        at[far + i] = { x: STEP * (w - i), y: STEP * 0.9 };
      }
      // The stores sit at their owners' right ends: the near one right, the far one left.
      const nearOwner = board.places[near].owner;
      board.places.forEach((p, i) => {
        if (p.pit || !p.on_track) return;
        if (p.owner === nearOwner) at[i] = { x: STEP * (w + 1), y: STEP * 1.5, store: true };
        else if (p.owner !== null) at[i] = { x: 0, y: STEP * 1.5, store: true };
      });
      return at;
    }
    if (name === "Ring") {
      // Clockwise from the top, as the ring's pits are numbered.
      const radius = Math.max(STEP * 1.5, (STEP * n) / (2 * Math.PI));
      for (let i = 0; i < n; i++) {
        const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
        at[i] = { x: radius + radius * Math.cos(a), y: radius + radius * Math.sin(a) };
      }
      const middle = board.places.map((p, i) => i).filter((i) => !board.places[i].pit && board.places[i].owner === null);
      if (middle.length === 1) at[middle[0]] = { x: radius, y: radius, centre: true };
      return at;
    }
    if (name === "FourRows" && 4 * shape.pits === n) {
      // Each side's first row nearest its owner: the viewer's two rows below, running left to right, the
      // other side's above, running right to left, so that each column holds the pits facing each other.
      const w = shape.pits;
      const near = viewer === 1 ? 1 : 0;
      const rows = [[1 - near, 0, 0.9], [1 - near, 1, 2.1], [near, 1, 3.5], [near, 0, 4.7]];
      for (const [side, second, y] of rows) {
        const first = side * 2 * w + second * w;
        for (let i = 0; i < w; i++) {
          at[first + i] = { x: STEP * (side === near ? i + 1 : w - i), y: STEP * y };
        }
      }
      return at;
    }
    if (name === "ThreeRows" && 3 * shape.pits === n && shape.pits % 2 === 0) {
      // The viewer's outer row below, left to right; the other's above, right to left; the shared middle
      // row between, so that each column holds one pit of each row. Each player's pits are his outer row,
      // then his half of the middle row numbered from his left (the right half as he sees it).
      const w = shape.pits;
      const half = w / 2;
      const side = w + half;
      const near = viewer === 1 ? 1 : 0;
      const rowY = [3.3, 2.1, 0.9];
      for (let owner = 0; owner < 2; owner++) {
        const first = owner * side;
        // Columns counted from this owner's left; the viewer's left is the other's right.
        const x = (column) => STEP * (owner === near ? column + 1 : w - column);
        const rowOf = (r) => (owner === near ? r : 2 - r);
        for (let k = 0; k < w; k++) at[first + k] = { x: x(k), y: STEP * rowY[rowOf(0)] };
        for (let k = 0; k < half; k++) at[first + w + k] = { x: x(half + k), y: STEP * rowY[1] };
      }
      return at;
    }
    if (name === "OneRow" && shape.pits === n) {
      // Left to right, with the store (if any) at the right end, as the track runs.
      for (let i = 0; i < n; i++) at[i] = { x: STEP * (i + 1), y: STEP * 1.5 };
      board.places.forEach((p, i) => {
        if (!p.pit && p.on_track) at[i] = { x: STEP * (n + 1), y: STEP * 1.5, store: true };
      });
      return at;
    }
    // Any other shape: rows of at most eight pits, in the order of the places.
    const per = Math.min(8, Math.max(1, n));
    for (let i = 0; i < n; i++) at[i] = { x: STEP * (i % per), y: STEP * Math.floor(i / per) };
    return at;
  }

  // A board of rows turned a quarter clockwise: the viewer's row on the right, running top to bottom.
  function turned(at) {
    const out = {};
    let maxY = 0;
    for (const p of Object.values(at)) maxY = Math.max(maxY, p.y);
    for (const [i, p] of Object.entries(at)) out[i] = { ...p, x: maxY - p.y, y: p.x, turned: true };
    return out;
  }

  // The pieces of a place: a count for plain seeds; balls of each kind's colour for a few pieces that
  // differ; for more, one disc per kind in its colour with its count, so that no colour hides another.
  function drawContents(g, board, counts, x, y, big) {
    const kinds = board.kinds;
    const total = counts.reduce((a, b) => a + b, 0);
    if (kinds.length === 1) {
      drawSeeds(g, total, x, y, big);
      el("text", { x, y: y + 7, class: "count" }, g).textContent = String(total);
      return;
    }
    if (total <= MAX_BALLS) {
      const pieces = [];
      counts.forEach((c, k) => {
        for (let i = 0; i < c; i++) pieces.push(k);
      });
      const spots = spiral(pieces.length, 13);
      pieces.forEach((k, i) => {
        const [dx, dy] = spots[i];
        el("circle", { cx: x + dx, cy: y + dy, r: 10, fill: kindColour(kinds[k], k), class: "ball" }, g);
        const label = el("text", { x: x + dx, y: y + dy + 4, class: "ball-label" }, g);
        label.textContent = kinds[k].symbol;
      });
      return;
    }
    const present = counts.map((c, k) => [c, k]).filter(([c]) => c > 0);
    const spots = spiral(present.length, 14);
    present.forEach(([c, k], i) => {
      const [dx, dy] = spots[i];
      el("circle", { cx: x + dx, cy: y + dy, r: 12, fill: kindColour(kinds[k], k), class: "ball tally" }, g);
      const label = el("text", { x: x + dx, y: y + dy + 5, class: "tally-count" }, g);
      label.textContent = String(c);
    });
    el("title", {}, g).textContent = present.map(([c, k]) => `${c} ${kinds[k].name}`).join(", ");
  }

  // Seeds as small dots around the count, as many as fit.
  function drawSeeds(g, count, x, y) {
    const n = Math.min(count, 14);
    const radius = 24;
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      el("circle", { cx: x + Math.cos(a) * radius, cy: y + Math.sin(a) * radius, r: 4, class: "seed" }, g);
    }
  }

  function spiral(n, gap) {
    const out = [];
    for (let i = 0; i < n; i++) {
      if (i === 0 && n === 1) {
        out.push([0, 0]);
        continue;
      }
      const ring = i < 6 ? 1 : 2;
      const k = ring === 1 ? i : i - 6;
      const m = ring === 1 ? Math.min(n, 6) : n - 6;
      const a = (2 * Math.PI * k) / m - Math.PI / 2;
      out.push([Math.cos(a) * gap * ring, Math.sin(a) * gap * ring]);
    }
    return out;
  }

  // Draws `view` (a game as the server sends it) into `svg`. Options:
  //   onPlace(index): a place that may be chosen is clicked or activated with the keyboard;
  //   onChoice(label): an arrow of a direction is clicked;
  //   onHover(option | null): the pointer is over a place with a whole ply to preview, or left it;
  //   at: the place a piece just went into, while a ply is shown piece by piece.
  function draw(svg, view, options) {
    options = options || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const board = view.board;
    const pos = view.position;
    const human = view.seats.findIndex((s) => s.kind === "human");
    let at = layout(board, human === 1 && view.players === 2 ? 1 : 0);
    const [shape] = shapeOf(board);
    // A board of rows wider than the screen allows for pits a finger can hit is drawn upright.
    const width = svg.clientWidth || svg.getBoundingClientRect().width || 800;
    const xs = Object.values(at).map((p) => p.x);
    const span = xs.length ? Math.max(...xs) - Math.min(...xs) + STEP : STEP;
    if (shape !== "Ring" && width < 600 && (width / span) * STEP < 44) at = turned(at);
    svg.classList.toggle("turned", Object.values(at).some((p) => p.turned));
    const playing = view.human_to_move ? view.options : [];
    const playable = new Set(playing.map((o) => o.place).filter((p) => p !== null));
    const marks = new Set(view.last ? view.last.marks : []);
    const root = el("g", {}, svg);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const grow = (x, y, r) => {
      minX = Math.min(minX, x - r); minY = Math.min(minY, y - r);
      maxX = Math.max(maxX, x + r); maxY = Math.max(maxY, y + r);
    };
    const placed = Object.keys(at).map(Number);
    placed.forEach((i) => {
      const p = board.places[i];
      const { x, y, store, centre } = at[i];
      const owner = p.pit ? pos.owners[i] : p.owner;
      const g = el("g", { class: "place", "data-place": i, "data-label": p.label }, root);
      // The target a pointer or finger hits: the whole cell, not only the pit drawn in it.
      el("circle", { cx: x, cy: y, r: STEP / 2, class: "hit" }, g);
      if (store) {
        const tall = !at[i].turned;
        const [w, h] = tall ? [2 * PIT, STEP * 1.8] : [STEP * 1.8, 2 * PIT];
        el("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: PIT, class: "store", stroke: seatColour(owner) }, g);
        grow(x, y, Math.max(w, h) / 2);
        grow(x, y + h / 2 + 18, 0);
      } else if (centre) {
        el("circle", { cx: x, cy: y, r: PIT * 1.3, class: "pit centre", stroke: seatColour(owner) }, g);
      } else {
        el("circle", { cx: x, cy: y, r: PIT, class: "pit", stroke: seatColour(owner) }, g);
        grow(x, y, PIT + 14);
      }
      drawContents(g, board, pos.counts[i], x, y, store);
      const below = store ? (at[i].turned ? PIT + 14 : STEP * 0.9 + 14) : centre ? PIT * 1.3 + 14 : PIT + 13;
      el("text", { x, y: y + below, class: "label" }, g).textContent = p.label;
      if (marks.has(i)) g.classList.add("marked");
      if (view.chosen === i) g.classList.add("chosen");
      if (options.at === i) g.classList.add("drop");
      // The marks the pit carries (a tuzdyk, a wegue, a fresh hole): a badge with the mark's initial at
      // the pit's upper right, one below the other, in the colour of the seat each is carried for; the
      // tooltip names them in full.
      const carried = (pos.marks && pos.marks[i]) || [];
      carried.forEach((m, k) => {
        const bx = x + PIT * 0.8, by = y - PIT * 0.8 + 13 * k;
        const seat = m.seat === null || m.seat === undefined ? null : m.seat;
        el("circle", { cx: bx, cy: by, r: 6, class: "pit-mark", stroke: seat === null ? "#3b2a18" : seatColour(seat) }, g);
        const t = el("text", { x: bx, y: by + 3, class: "pit-mark-letter" }, g);
        t.textContent = m.name.charAt(0);
        g.dataset.marks = carried.map((c) => c.name).join(" ");
      });
      if (carried.length) g.classList.add("carries-mark");
      const title = el("title", {}, g);
      title.textContent = describe(board, p, pos.counts[i], owner, view)
        + carried.map((m) => `, ${m.name.replace(/_/g, " ")}` + (m.seat === null ? "" : ` of ${view.seats[m.seat] ? view.seats[m.seat].name : "player " + (m.seat + 1)}`)).join("");
      if (playable.has(i) && options.onPlace) {
        g.classList.add("playable");
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", "play " + p.label);
        g.addEventListener("click", () => options.onPlace(i));
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            options.onPlace(i);
          }
        });
        const previewed = playing.filter((o) => o.place === i && o.preview);
        if (previewed.length === 1 && options.onHover) {
          const show = () => options.onHover(previewed[0]);
          const hide = () => options.onHover(null);
          g.addEventListener("mouseenter", show);
          g.addEventListener("focus", show);
          g.addEventListener("mouseleave", hide);
          g.addEventListener("blur", hide);
        }
      }
    });
    // Off-board places (supplies, captures): trays in a row under the board.
    const trays = board.places.map((p, i) => i).filter((i) => !(i in at));
    if (trays.length) {
      const y = (isFinite(maxY) ? maxY : 0) + 50;
      const x0 = isFinite(minX) ? minX + 48 : 0;
      const perRow = Math.max(1, Math.floor((isFinite(maxX) ? maxX - minX : 400) / 110) + 1);
      trays.forEach((i, k) => {
        const p = board.places[i];
        const x = x0 + (k % perRow) * 110;
        const ty = y + Math.floor(k / perRow) * 90;
        const g = el("g", { class: "place tray", "data-place": i, "data-label": p.label }, root);
        el("rect", { x: x - 48, y: ty - 26, width: 96, height: 52, rx: 10, class: "tray-box",
          stroke: seatColour(p.owner) }, g);
        drawContents(g, board, pos.counts[i], x, ty, false);
        el("text", { x, y: ty + 40, class: "label" }, g).textContent = p.label;
        if (marks.has(i)) g.classList.add("marked");
        if (options.at === i) g.classList.add("drop");
        el("title", {}, g).textContent = describe(board, p, pos.counts[i], p.owner, view);
        grow(x, ty, 56);
      });
    }
    drawArrows(root, view, at, options);
    drawPreview(root, view, at, options.preview);
    if (!isFinite(minX)) { minX = 0; minY = 0; maxX = 100; maxY = 100; }
    const pad = 12;
    svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  }

  // A direction to choose: an arrow from the pit chosen toward the next pit each way, with its word, that
  // may be clicked.
  function drawArrows(root, view, at, options) {
    if (!view.human_to_move || view.chosen === null || view.chosen === undefined) return;
    const from = at[view.chosen];
    if (!from) return;
    for (const o of view.options) {
      if (o.kind !== "direction" || o.towards === null || o.towards === undefined || !at[o.towards]) continue;
      const to = at[o.towards];
      const dx = to.x - from.x, dy = to.y - from.y;
      const d = Math.hypot(dx, dy) || 1;
      const ux = dx / d, uy = dy / d;
      const x1 = from.x + ux * (PIT + 4), y1 = from.y + uy * (PIT + 4);
      const x2 = to.x - ux * (PIT + 4), y2 = to.y - uy * (PIT + 4);
      const g = el("g", { class: "arrow", "data-label": o.label, role: "button", tabindex: "0", "aria-label": `sow ${o.label}` }, root);
      el("line", { x1, y1, x2, y2, class: "arrow-line" }, g);
      const head = 12, px = -uy, py = ux;
      el("polygon", {
        points: `${x2},${y2} ${x2 - ux * head + px * head * 0.6},${y2 - uy * head + py * head * 0.6} ${x2 - ux * head - px * head * 0.6},${y2 - uy * head - py * head * 0.6}`,
        class: "arrow-head",
      }, g);
      const mx = (x1 + x2) / 2 - uy * 14, my = (y1 + y2) / 2 + ux * 14;
      el("rect", { x: mx - 20, y: my - 13, width: 40, height: 22, rx: 6, class: "arrow-tag" }, g);
      el("text", { x: mx, y: my + 3, class: "arrow-label" }, g).textContent = o.label;
      if (options.onChoice) {
        g.addEventListener("click", () => options.onChoice(o.label));
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            options.onChoice(o.label);
          }
        });
      }
    }
  }

  // The preview of a ply under the pointer: the pit where its last piece lands ringed, with what it does.
  function drawPreview(root, view, at, option) {
    if (!option || !option.preview) return;
    const last = at[option.preview.last];
    if (!last) return;
    const cls = option.preview.captures ? "preview captures" : option.preview.again ? "preview again" : "preview";
    el("circle", { cx: last.x, cy: last.y, r: PIT + 7, class: cls }, root);
  }

  // A place's contents in words, for its tooltip and for screen readers.
  function describe(board, place, counts, owner, view) {
    const parts = counts.map((c, k) => (c ? `${c} ${board.kinds[k].name}` : "")).filter(Boolean);
    const whose = owner === null || owner === undefined ? "" : ` (${view.seats[owner] ? view.seats[owner].name : "player " + (owner + 1)})`;
    return `${place.label}${whose}: ${parts.length ? parts.join(", ") : "empty"}`;
  }

  window.MancalaBoard = { draw, seatColour };
})();
