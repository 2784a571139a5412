// The board as SVG, drawn from the lowered rules the server sends (places, owners, the shape) and the
// position. A shape is a layout: where each place goes. One, two and four rows and a ring have their own; any other
// shape (a new one the language gains) falls back to rows of pits, so it is drawn before it is known here.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#d84339", "#2f6fd0", "#2e9e4f", "#e0b020", "#a0a0a0", "#8e44ad", "#12939a", "#e8702a"];
  const KIND_COLOURS = ["#6d4c41", "#546e7a", "#c0ca33", "#8d6e63", "#26a69a", "#ab47bc"];
  const PIT = 34; // the radius of a pit
  const STEP = 84; // from one pit's centre to the next

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

  // Where each place goes: {x, y, store} by index; places left out are drawn as trays below.
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

  // The pieces of a place: a count for plain seeds, balls of each kind's colour for pieces that differ.
  function drawContents(g, board, counts, x, y, big) {
    const kinds = board.kinds;
    const total = counts.reduce((a, b) => a + b, 0);
    if (kinds.length === 1) {
      drawSeeds(g, total, x, y, big);
      el("text", { x, y: y + 7, class: "count" }, g).textContent = String(total);
      return;
    }
    const pieces = [];
    counts.forEach((c, k) => {
      for (let i = 0; i < c; i++) pieces.push(k);
    });
    if (pieces.length > 12) {
      const text = counts.map((c, k) => (c ? c + kinds[k].symbol : "")).filter(Boolean).join(" ");
      el("text", { x, y: y + 5, class: "count small" }, g).textContent = text;
      return;
    }
    const spots = spiral(pieces.length, big ? 11 : 9);
    pieces.forEach((k, i) => {
      const [dx, dy] = spots[i];
      el("circle", { cx: x + dx, cy: y + dy, r: 8, fill: kindColour(kinds[k], k), class: "ball" }, g);
      const label = el("text", { x: x + dx, y: y + dy + 4, class: "ball-label" }, g);
      label.textContent = kinds[k].symbol;
    });
  }

  // Seeds as small dots behind the count, up to a dozen.
  function drawSeeds(g, count, x, y, big) {
    // A ring of seeds around the count, as many as fit.
    const n = Math.min(count, 14);
    const radius = big ? 24 : 24;
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

  // Draws `view` (a game as the server sends it) into `svg`. `options.onPlace(index)` is called when a
  // place that may be chosen is clicked or activated with the keyboard.
  function draw(svg, view, options) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const board = view.board;
    const pos = view.position;
    const human = view.seats.findIndex((s) => s.kind === "human");
    const at = layout(board, human === 1 && view.players === 2 ? 1 : 0);
    const playable = new Set((view.human_to_move ? view.options : []).map((o) => o.place).filter((p) => p !== null));
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
      const { x, y, store } = at[i];
      const owner = p.pit ? pos.owners[i] : p.owner;
      const g = el("g", { class: "place", "data-place": i, "data-label": p.label }, root);
      if (store) {
        el("rect", { x: x - PIT, y: y - STEP * 0.9, width: 2 * PIT, height: STEP * 1.8, rx: PIT, class: "store",
          stroke: seatColour(owner) }, g);
        grow(x, y, STEP * 0.9);
        // Its label sits below it.
        grow(x, y + STEP * 0.9 + 18, 0);
      } else {
        el("circle", { cx: x, cy: y, r: PIT, class: "pit", stroke: seatColour(owner) }, g);
        grow(x, y, PIT + 14);
      }
      drawContents(g, board, pos.counts[i], x, y, store);
      el("text", { x, y: store ? y + STEP * 0.9 + 14 : y + PIT + 13, class: "label" }, g).textContent = p.label;
      if (marks.has(i)) g.classList.add("marked");
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
        + carried.map((m) => `, ${m.name}` + (m.seat === null ? "" : ` of ${view.seats[m.seat] ? view.seats[m.seat].name : "player " + (m.seat + 1)}`)).join("");
      if (playable.has(i)) {
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
      }
    });
    // Off-board places (supplies, captures, the centre): trays in a row under the board.
    const trays = board.places.map((p, i) => i).filter((i) => !(i in at));
    if (trays.length) {
      const y = (isFinite(maxY) ? maxY : 0) + 50;
      const x0 = isFinite(minX) ? minX + 40 : 0;
      trays.forEach((i, k) => {
        const p = board.places[i];
        const x = x0 + k * 110;
        const g = el("g", { class: "place tray", "data-place": i, "data-label": p.label }, root);
        el("rect", { x: x - 48, y: y - 26, width: 96, height: 52, rx: 10, class: "tray-box",
          stroke: seatColour(p.owner) }, g);
        drawContents(g, board, pos.counts[i], x, y, false);
        el("text", { x, y: y + 40, class: "label" }, g).textContent = p.label;
        if (marks.has(i)) g.classList.add("marked");
        el("title", {}, g).textContent = describe(board, p, pos.counts[i], p.owner, view);
        grow(x, y, 56);
      });
    }
    if (!isFinite(minX)) { minX = 0; minY = 0; maxX = 100; maxY = 100; }
    const pad = 12;
    svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  }

  // A place's contents in words, for its tooltip and for screen readers.
  function describe(board, place, counts, owner, view) {
    const parts = counts.map((c, k) => (c ? `${c} ${board.kinds[k].name}` : "")).filter(Boolean);
    const whose = owner === null || owner === undefined ? "" : ` (${view.seats[owner] ? view.seats[owner].name : "player " + (owner + 1)})`;
    return `${place.label}${whose}: ${parts.length ? parts.join(", ") : "empty"}`;
  }

  window.MancalaBoard = { draw, seatColour };
})();
