// The playground page: the game picker, the board and its turn, the history, and the editor. Every game
// lives on the server; the page keeps only the id of its game (so a reload finds it again) and a draft
// of the edited rules.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode: no memory */ } },
  };
  // The pause between the computer's plies, so that each can be seen (`?pause=MS` changes it).
  const COMPUTER_PAUSE = Number(new URLSearchParams(location.search).get("pause") || 450);
  // How long each piece of a ply is shown, by the speed chosen; `off` shows the ply's end at once, as does
  // a person who asked for reduced motion (until he picks a speed).
  const SPEEDS = { slow: 320, normal: 140, fast: 50, off: 0 };
  const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let view = null; // the game as the server last sent it
  let editor = null;
  let busy = false;
  let computerTimer = null;
  let games = [];
  let picking = Promise.resolve(); // the reading of a game just picked
  let animating = false; // a ply is being shown step by step
  let animation = 0; // the number of the latest animation, so that an older one stops
  let hovered = null; // the option whose ply is previewed under the pointer
  let whyMarks = null; // the places of the step of "why?" under the pointer
  let viewing = null; // the ply shown by the slider, when it is not the game's last
  let viewed = null; // what the server sent for it

  function speed() {
    const chosen = store.get("mancala.speed") || (reducedMotion ? "off" : "normal");
    return chosen in SPEEDS ? chosen : "normal";
  }

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    let data = null;
    try { data = await response.json(); } catch (e) { data = { error: "the server sent no JSON" }; }
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.data = data;
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function say(text, isError) {
    $("message").textContent = text || "";
    $("message").classList.toggle("error", !!isError);
  }

  // ------------------------------------------------------------ the game picker

  async function loadGames() {
    games = (await api("GET", "/api/games")).games;
    const select = $("game");
    select.innerHTML = "";
    for (const g of games) {
      const option = document.createElement("option");
      option.value = g.name;
      option.textContent = g.origin === "dir" ? g.name : g.name + " (shipped)";
      select.appendChild(option);
    }
  }

  async function pickGame(name) {
    const file = await api("GET", "/api/games/" + encodeURIComponent(name));
    const select = $("variant");
    select.innerHTML = "";
    for (const v of file.variants.length ? file.variants : ["default"]) {
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v;
      select.appendChild(option);
    }
    return file;
  }

  // One chooser per seat but the first: a person or the computer. Seat 1 is a person unless changed.
  function drawSeats(players) {
    const box = $("seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.innerHTML = "";
    for (let i = 0; i < players; i++) {
      const label = document.createElement("label");
      label.textContent = `Seat ${i + 1} `;
      const select = document.createElement("select");
      select.className = "seat";
      for (const [value, text] of [["human", "person"], ["easy", "computer (easy)"], ["normal", "computer (normal)"], ["hard", "computer (hard)"], ["greedy", "computer (quick)"], ["random", "random"]]) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = text;
        select.appendChild(option);
      }
      select.value = old[i] || (i === 0 ? "human" : "normal");
      label.appendChild(select);
      box.appendChild(label);
    }
  }

  function seatChoice() {
    return [...$("seats").querySelectorAll("select")].map((s) => s.value);
  }

  async function startGame(request) {
    stopComputer();
    try {
      const fresh = await api("POST", "/api/sessions", request);
      // The game this page showed is no longer reachable from it: it frees its place on the server.
      if (view && view.id !== fresh.id) api("DELETE", `/api/sessions/${view.id}`).catch(() => {});
      show(fresh);
      say(`a new game of ${fresh.game}${fresh.variant !== "default" ? " (" + fresh.variant + ")" : ""}`);
      loadRules();
      return fresh;
    } catch (e) {
      say(e.message, true);
      if (e.data && e.data.diagnostics) listDiagnostics(e.data.diagnostics, request.text || "");
      return null;
    }
  }

  function setupRequest() {
    const request = { game: $("game").value, variant: $("variant").value, seats: seatChoice() };
    const players = parseInt($("players").value, 10);
    if (players > 0) request.players = players;
    const position = $("position").value.trim();
    if (position) request.position = position;
    return request;
  }

  // ------------------------------------------------------------ the game

  // Shows a game as the server sent it. A ply just played is shown step by step first: the board after
  // its sowing, then after its captures (the boards the server lists in `last.steps`).
  function show(next) {
    const previous = view;
    view = next;
    store.set("mancala.session", view.id);
    const fresh = previous && previous.id === next.id && next.history.length === previous.history.length + 1;
    const frames = fresh && next.last ? (next.last.frames || next.last.steps.map((counts) => ({ counts, at: null }))) : [];
    if (previous && previous.id !== next.id) { viewing = null; viewed = null; $("why").hidden = true; }
    if (viewing !== null && next.history.length !== (previous ? previous.history.length : -1)) { viewing = null; viewed = null; }
    hovered = null;
    animate(fresh ? frames.slice(0, -1) : []);
    drawStatus();
    drawChoices();
    drawHistory();
    drawLog();
    $("undo").disabled = view.history.length === 0 && !view.in_turn;
    $("redo").disabled = view.redo === 0;
    const over = !!view.position.result;
    $("computer").disabled = over;
    $("hint").disabled = over;
    if (view.seats.length !== $("seats").querySelectorAll("select").length) drawSeats(view.seats.length);
    if (!animating) scheduleComputer();
  }

  function drawBoard() {
    if (viewing !== null && viewed) {
      // A ply of the past, from the slider: shown, not played.
      const past = { ...view, human_to_move: false, chosen: null, position: viewed.position, last: { marks: viewed.marks } };
      window.MancalaBoard.draw($("board"), past, {});
      return;
    }
    const shown = whyMarks ? { ...view, last: { ...(view.last || {}), marks: whyMarks } } : view;
    window.MancalaBoard.draw($("board"), shown, {
      onPlace: clickPlace,
      onChoice: (label) => play(label),
      onHover: (option) => {
        if (hovered === option) return;
        hovered = option;
        $("preview").textContent = option ? previewText(option) : "";
        drawBoard();
      },
      preview: hovered,
    });
  }

  // What a start would do, in words, for the preview under the pointer.
  function previewText(option) {
    const p = option.preview;
    const label = view.board.places[p.last] ? view.board.places[p.last].label : "?";
    const what = p.captures ? "captures" : p.again ? "plays again" : "";
    return `${option.label}: ends in ${label}${what ? ", " + what : ""} — ${p.text}`;
  }

  // Draws each of `frames` (boards of counts, the place a piece just went into) for a moment, at the speed
  // chosen, then the game as it is. `skip` ends it at once.
  function animate(frames) {
    const token = ++animation;
    const pause = SPEEDS[speed()];
    if (!frames.length || pause === 0) {
      animating = false;
      $("skip").hidden = true;
      drawBoard();
      return;
    }
    animating = true;
    $("skip").hidden = false;
    const still = { ...view, human_to_move: false, chosen: null };
    let i = 0;
    const next = () => {
      if (token !== animation) return;
      if (i < frames.length) {
        const f = frames[i++];
        window.MancalaBoard.draw($("board"), { ...still, position: { ...view.position, counts: f.counts } }, { at: f.at });
        setTimeout(next, pause);
      } else {
        finishAnimation();
      }
    };
    next();
  }

  function finishAnimation() {
    animation++;
    animating = false;
    $("skip").hidden = true;
    drawBoard();
    scheduleComputer();
  }

  function drawStatus() {
    const box = $("status");
    box.innerHTML = "";
    const pos = view.position;
    const dot = document.createElement("span");
    dot.className = "dot";
    if (pos.result) {
      const r = pos.result;
      const names = r.winners.map((w) => view.seats[w].name);
      const scores = r.scores.map((s, i) => `${view.seats[i].name} ${s}`).join(", ");
      if (view.goal) {
        // A solitaire is won or lost.
        box.textContent = r.lost ? "Game over: lost — the goal cannot be reached from here" : "Solved: you win!";
        box.classList.toggle("lost", !!r.lost);
        return;
      }
      const verdict = r.draw ? "a draw" : names.join(" and ") + (names.length === 1 && names[0] === "you" ? " win" : names.length > 1 ? " share the win" : " wins");
      box.textContent = `Game over: ${verdict} (${scores})`;
      return;
    }
    box.classList.remove("lost");
    // In the middle of a move the opponent may be the one to decide (an answer, `opponent may`).
    const decider = pos.decider ?? pos.to_move;
    dot.style.background = window.MancalaBoard.seatColour(decider);
    box.appendChild(dot);
    const who = view.seats[decider].name;
    const mover = view.seats[pos.to_move].name;
    const doing = decider === pos.to_move ? "to move" : `to answer ${mover === "you" ? "your" : mover + "'s"} move`;
    const phase = pos.phase ? ` (${pos.phase})` : "";
    const ply = `ply ${pos.ply + 1}: `;
    box.appendChild(document.createTextNode(`${ply}${who} ${doing}${phase}` + (view.human_to_move ? "" : " — thinking…")));
  }

  // The options of the decision at hand: places are clicked on the board; the rest (directions, pieces,
  // stop, accept) are buttons, and so are several options on one place.
  function drawChoices(forPlace) {
    const box = $("choices");
    box.innerHTML = "";
    $("decision").textContent = "";
    if (!view.human_to_move) return;
    const options = view.options;
    const onBoard = options.filter((o) => o.place !== null);
    let shown = options.filter((o) => o.place === null);
    if (forPlace !== undefined) shown = onBoard.filter((o) => o.place === forPlace);
    const where = onBoard.length ? "click a highlighted place" : "";
    const asked = view.question ? capital(view.question) : capital(view.decision);
    $("decision").textContent = view.offer ? view.offer : `${asked}${where && shown.length ? " (" + where + ", or choose)" : where ? " — " + where : ":"}`;
    $("question-doc").textContent = view.question_doc || "";
    for (const o of shown) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = o.label;
      button.dataset.label = o.label;
      button.addEventListener("click", () => play(o.label));
      box.appendChild(button);
    }
    if (view.in_turn) {
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.textContent = "cancel turn";
      cancel.addEventListener("click", () => act("cancel"));
      box.appendChild(cancel);
    }
  }

  function capital(s) {
    return s ? s[0].toUpperCase() + s.slice(1) : s;
  }

  function clickPlace(index) {
    const here = view.options.filter((o) => o.place === index);
    if (here.length === 1) play(here[0].label);
    else if (here.length > 1) drawChoices(index);
  }

  function drawHistory() {
    const list = $("history");
    list.innerHTML = "";
    const movers = view.movers || [];
    view.history.forEach((ply, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const who = view.seats[movers[i]] ? view.seats[movers[i]].name : "";
      const name = document.createElement("span");
      name.className = "mover";
      name.textContent = who ? who + ": " : "";
      name.style.color = window.MancalaBoard.seatColour(movers[i]);
      button.appendChild(name);
      button.appendChild(document.createTextNode(ply));
      button.dataset.ply = String(i + 1);
      button.title = "go back to the position after this ply";
      button.addEventListener("click", () => stepTo(i + 1));
      item.appendChild(button);
      list.appendChild(item);
    });
    if (view.redo > 0) {
      const item = document.createElement("li");
      item.className = "future";
      item.textContent = `(${view.redo} to redo)`;
      list.appendChild(item);
    }
    const slider = $("scrub");
    slider.max = String(view.history.length);
    slider.value = String(viewing === null ? view.history.length : viewing);
    slider.disabled = view.history.length === 0;
    drawScrubLabel();
  }

  function drawScrubLabel() {
    const n = view.history.length;
    const at = viewing === null ? n : viewing;
    $("scrub-label").textContent = viewing === null ? `ply ${n} of ${n}` : `viewing ply ${at} of ${n}` + (viewed && viewed.text ? ` — ${viewed.text}` : "");
    $("scrub-back").hidden = viewing === null;
  }

  // The slider: the board after any ply, shown without changing the game.
  async function viewPly(n) {
    if (!view) return;
    if (n >= view.history.length) {
      viewing = null;
      viewed = null;
      drawScrubLabel();
      drawBoard();
      return;
    }
    try {
      const got = await api("GET", `/api/sessions/${view.id}/plies/${n}`);
      viewing = n;
      viewed = got;
      drawScrubLabel();
      drawBoard();
    } catch (e) {
      say(e.message, true);
    }
  }

  function drawLog() {
    const list = $("log");
    list.innerHTML = "";
    for (const line of view.log.slice(-40)) {
      const item = document.createElement("li");
      item.textContent = line.text;
      // A ply still in the game (not taken back since) can say why it did what it did.
      if (line.ply && view.history[line.ply - 1] === line.move) item.appendChild(whyButton(line.ply));
      list.appendChild(item);
    }
    list.scrollTop = list.scrollHeight;
    // The message under the board tells the last ply: it gets its "why?" too.
    const last = view.log[view.log.length - 1];
    const message = $("message");
    if (last && last.ply === view.history.length && message.textContent === last.text) {
      message.appendChild(whyButton(last.ply));
    }
  }

  function whyButton(ply) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "why";
    button.textContent = "why?";
    button.title = `ply ${ply} step by step, with the rule of each step`;
    button.addEventListener("click", () => explain(ply));
    return button;
  }

  // "why?": the ply told step by step (`GET /api/sessions/ID/explain/N`); a step under the pointer marks
  // its places on the board.
  async function explain(ply) {
    let got;
    try {
      got = await api("GET", `/api/sessions/${view.id}/explain/${ply}`);
    } catch (e) {
      say(e.message, true);
      return;
    }
    const box = $("why");
    $("why-title").textContent = `Why: ply ${ply}, ${got.explanation.ply} by ${got.who}`;
    const list = $("why-steps");
    list.innerHTML = "";
    for (const step of got.explanation.steps) {
      const item = document.createElement("li");
      item.className = "step-" + step.step;
      const text = document.createElement("span");
      text.textContent = step.text;
      item.appendChild(text);
      if (step.rule) {
        const rule = document.createElement("code");
        rule.className = "rule";
        rule.textContent = `line ${step.rule.line}: ${step.rule.text}`;
        item.appendChild(rule);
        if (step.rule.doc) {
          const doc = document.createElement("q");
          doc.textContent = step.rule.doc;
          item.appendChild(doc);
        }
      }
      const marks = step.places.map((label) => view.board.places.findIndex((p) => p.label === label)).filter((i) => i >= 0);
      item.addEventListener("mouseenter", () => { whyMarks = marks; drawBoard(); });
      item.addEventListener("mouseleave", () => { whyMarks = null; drawBoard(); });
      list.appendChild(item);
    }
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  // Undoes or redoes until `plies` plies are played, a step back through the game.
  async function stepTo(plies) {
    stopComputer();
    let guard = 2000;
    while (view.history.length > plies && guard-- > 0) {
      const before = view.history.length;
      if (!(await act("undo", undefined, true))) break;
      if (view.history.length >= before) break;
    }
    while (view.history.length < plies && view.redo > 0 && guard-- > 0) {
      const before = view.history.length;
      if (!(await act("redo", undefined, true))) break;
      if (view.history.length <= before) break;
    }
  }

  async function play(label) {
    return act("play", { move: label });
  }

  // Runs an action of the game; shows the answer. `quiet`: no computer move after it.
  async function act(action, body, quiet) {
    if (!view || busy) return false;
    busy = true;
    if (quiet) stopComputer();
    const watching = action === "computer" || action === "hint" ? watchThinking(view.id) : null;
    try {
      const next = await api("POST", `/api/sessions/${view.id}/${action}`, body === undefined ? {} : body);
      if (watching) watching.end();
      say(next.message);
      if (quiet) {
        // Taken back or replayed: shown at once, not step by step.
        view = next;
        busy = false;
        show(next);
        stopComputer();
      } else {
        busy = false;
        show(next);
      }
      return true;
    } catch (e) {
      if (watching) watching.end();
      busy = false;
      say(e.message, true);
      if (e.status === 404) store.set("mancala.session", "");
      return false;
    }
  }

  // While the computer thinks (a move, a hint) for more than a moment: how long, of its budget, and a
  // button that makes it decide now.
  function watchThinking(id) {
    let timer = null;
    let ended = false;
    const poll = async () => {
      try {
        const t = await api("GET", `/api/sessions/${id}/thinking`);
        if (ended || !t.thinking) return;
        $("thinking").hidden = false;
        $("thinking-bar").max = t.budget_ms;
        $("thinking-bar").value = Math.min(t.elapsed_ms, t.budget_ms);
        const seconds = (t.elapsed_ms / 1000).toFixed(1);
        $("thinking-text").textContent = t.stopping
          ? "deciding now…"
          : `the computer is thinking: ${seconds} s of ${t.budget_ms / 1000} s${t.detail ? " (" + t.detail + ")" : ""}`;
      } catch (e) { /* the answer is on its way */ }
      if (!ended) timer = setTimeout(poll, 250);
    };
    timer = setTimeout(poll, 300);
    $("stop").onclick = () => api("POST", `/api/sessions/${id}/stop`, {}).catch(() => {});
    return {
      end() {
        ended = true;
        clearTimeout(timer);
        $("thinking").hidden = true;
      },
    };
  }

  function stopComputer() {
    if (computerTimer) clearTimeout(computerTimer);
    computerTimer = null;
  }

  // The computer's seats move one ply at a time, with a pause to see each.
  function scheduleComputer() {
    stopComputer();
    if (!view || view.position.result || view.human_to_move) return;
    computerTimer = setTimeout(() => {
      computerTimer = null;
      act("computer");
    }, COMPUTER_PAUSE);
  }

  async function loadRules() {
    try {
      $("rules").textContent = (await api("GET", `/api/sessions/${view.id}/rules`)).summary;
    } catch (e) {
      $("rules").textContent = e.message;
    }
  }

  function saveGame() {
    if (!view) return;
    fetch(`/api/sessions/${view.id}/save`).then(async (r) => {
      if (!r.ok) throw new Error((await r.json()).error);
      return r.text();
    }).then((text) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
      link.download = `${view.name}-game.json`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      say("saved the game as " + link.download);
    }).catch((e) => say(e.message, true));
  }

  async function loadGame(file) {
    const text = await file.text();
    viewing = null;
    viewed = null;
    await act("load", { save: text });
  }

  // ------------------------------------------------------------ the editor

  async function check(text) {
    return (await api("POST", "/api/check", { text })).diagnostics;
  }

  function listDiagnostics(records, text) {
    const list = $("diagnostics");
    list.innerHTML = "";
    const errors = records.filter((d) => d.severity === "error").length;
    const warnings = records.length - errors;
    $("diag-summary").textContent = records.length === 0 ? "no problems" : `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
    $("play-text").disabled = errors > 0;
    for (const d of records) {
      const item = document.createElement("li");
      item.className = d.severity;
      item.dataset.line = d.line;
      item.textContent = `${d.line}:${d.column} ${d.severity}: ${d.message}`;
      if (d.help) {
        const help = document.createElement("span");
        help.className = "help";
        help.textContent = "help: " + d.help;
        item.appendChild(help);
      }
      item.tabIndex = 0;
      const go = () => editor && editor.goTo(d.line, d.column);
      item.addEventListener("click", go);
      item.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
      list.appendChild(item);
    }
  }

  // The rules last put into the editor from a file, to notice edits before they are replaced.
  let loadedText = "";

  function setEditorText(text, name) {
    editor.setText(text);
    loadedText = text;
    if (name) $("name").value = name;
    store.set("mancala.draft", text);
    store.set("mancala.draftName", $("name").value);
  }

  async function playText() {
    const text = editor.getText();
    const name = $("name").value.trim() || "variant";
    const fresh = await startGame({ text, name, seats: seatChoice() });
    if (fresh) say(`playing the rules of the editor (${name})`);
  }

  async function saveText() {
    const name = $("name").value.trim();
    const body = { text: editor.getText() };
    try {
      await api("PUT", "/api/games/" + encodeURIComponent(name), body);
      say(`saved ${name}.mancala`);
    } catch (e) {
      if (e.data && e.data.kind === "exists" && confirm(`${name}.mancala exists. Overwrite it?`)) {
        body.overwrite = true;
        await api("PUT", "/api/games/" + encodeURIComponent(name), body).then(() => say(`saved ${name}.mancala`), (e2) => say(e2.message, true));
      } else {
        say(e.message, true);
      }
    }
    await loadGames();
    $("game").value = view ? view.name : $("game").value;
  }

  // ------------------------------------------------------------ start

  function keyboard(e) {
    if (e.target.closest("input, select, textarea, .cm-editor") || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = { u: "undo", r: "redo", c: "computer", h: "hint" };
    if (keys[e.key]) {
      e.preventDefault();
      act(keys[e.key], keys[e.key] === "hint" ? { level: $("hint-level").value } : undefined);
    } else if (e.key === "Escape" && animating) {
      finishAnimation();
    }
  }

  async function init() {
    const language = await api("GET", "/api/language");
    editor = window.MancalaEditor.create($("editor"), {
      doc: "",
      keywords: language.keywords,
      check,
      complete: (text, offset) => api("POST", "/api/complete", { text, offset }),
      hover: async (text, offset) => (await api("POST", "/api/hover", { text, offset })).hover,
      onChange: (text) => store.set("mancala.draft", text),
      onDiagnostics: listDiagnostics,
    });
    await loadGames();
    $("game").addEventListener("change", () => {
      picking = changeGame();
    });
    $("setup").addEventListener("submit", async (e) => {
      e.preventDefault();
      // A game just picked is read first: its seats and variants are those of the new game.
      await picking;
      startGame(setupRequest());
    });
    async function changeGame() {
      const file = await pickGame($("game").value);
      const edited = editor.getText() !== loadedText && editor.getText().trim() !== "";
      if (!edited || confirm("Replace the rules in the editor, which you changed, with those of " + file.name + "?")) {
        setEditorText(file.text, file.name);
      }
      $("players").value = "";
      drawSeats(file.players || 2);
    }
    $("players").addEventListener("change", () => {
      const n = parseInt($("players").value, 10);
      if (n > 0 && n <= 8) drawSeats(n);
    });
    $("typed").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("move").value.trim();
      if (text) play(text).then((ok) => { if (ok) $("move").value = ""; });
    });
    $("undo").addEventListener("click", () => act("undo", undefined, true));
    $("why-close").addEventListener("click", () => { $("why").hidden = true; whyMarks = null; drawBoard(); });
    // The board's layout follows its width (rows too wide for a phone's screen are drawn upright), so a
    // window that is resized or a phone that is turned redraws it.
    let drawnWidth = $("board").clientWidth;
    new ResizeObserver(() => {
      const width = $("board").clientWidth;
      if (width === drawnWidth) return;
      drawnWidth = width;
      if (view && !animating) drawBoard();
    }).observe($("board"));
    $("redo").addEventListener("click", () => act("redo", undefined, true));
    $("computer").addEventListener("click", () => act("computer"));
    $("hint").addEventListener("click", () => act("hint", { level: $("hint-level").value }));
    $("hint-level").value = store.get("mancala.hintLevel") || "normal";
    $("hint-level").addEventListener("change", () => store.set("mancala.hintLevel", $("hint-level").value));
    $("speed").value = speed();
    $("speed").addEventListener("change", () => store.set("mancala.speed", $("speed").value));
    $("skip").addEventListener("click", finishAnimation);
    $("scrub").addEventListener("input", () => viewPly(Number($("scrub").value)));
    $("scrub-back").addEventListener("click", () => viewPly(Infinity));
    $("save").addEventListener("click", saveGame);
    $("load").addEventListener("change", (e) => { if (e.target.files[0]) loadGame(e.target.files[0]); e.target.value = ""; });
    $("copy").addEventListener("click", () => {
      const base = view ? view.name : $("game").value;
      setEditorText(view ? view.text : editor.getText(), `my-${base}`.slice(0, 64));
      say("a copy of the rules: edit them, then play them");
      editor.focus();
    });
    $("play-text").addEventListener("click", playText);
    $("save-text").addEventListener("click", saveText);
    document.addEventListener("keydown", keyboard);

    // A reload finds the game in progress on the server, and the draft of the rules.
    const id = store.get("mancala.session");
    let resumed = null;
    if (id) {
      try { resumed = await api("GET", "/api/sessions/" + id); } catch (e) { resumed = null; }
    }
    const wanted = new URLSearchParams(location.search).get("game");
    if (resumed && (!wanted || wanted === resumed.name)) {
      if (games.some((g) => g.name === resumed.name)) {
        $("game").value = resumed.name;
        await pickGame(resumed.name);
        $("variant").value = resumed.variant;
      }
      drawSeats(resumed.seats.length);
      [...$("seats").querySelectorAll("select")].forEach((s, i) => {
        if ([...s.options].some((o) => o.value === resumed.seats[i].kind)) s.value = resumed.seats[i].kind;
      });
      show(resumed);
      loadRules();
      const draft = store.get("mancala.draft");
      setEditorText(draft !== null ? draft : resumed.text, store.get("mancala.draftName") || resumed.name);
      say("the game in progress");
      return;
    }
    const first = wanted && games.some((g) => g.name === wanted) ? wanted : games[0].name;
    $("game").value = first;
    const file = await pickGame(first);
    setEditorText(file.text, file.name);
    drawSeats(file.players || 2);
    await startGame(setupRequest());
  }

  window.addEventListener("DOMContentLoaded", () => {
    init().catch((e) => say("the playground could not start: " + e.message, true));
  });
  // For the browser tests: the game shown, and whether the page waits for nothing (no request, no
  // computer move to come).
  window.MancalaApp = {
    get view() { return view; },
    get editor() { return editor; },
    get idle() { return !busy && !animating && computerTimer === null; },
  };
})();
