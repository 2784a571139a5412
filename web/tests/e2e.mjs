// End-to-end tests of the playground in headless Chromium, run by tests/browser.rs:
//   node web/tests/e2e.mjs URL SCREENSHOT.png
// Each scenario drives the page as a person would (clicks, buttons, typing) and checks what it shows.
// Exits 1 with the failing step's message.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [url, screenshot] = process.argv.slice(2);
const chromium = process.env.MANCALA_CHROMIUM || "/usr/bin/chromium";
const STEP_TIMEOUT = 30000;
// A short pause between the computer's plies: the tests need not watch them.
const PAUSE = 40;

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const page = await browser.newPage();
const problems = [];
page.on("pageerror", (e) => problems.push("page error: " + e.message));
page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
page.setDefaultTimeout(STEP_TIMEOUT);
// Questions (replace the edited rules? overwrite a file?) are answered yes.
page.on("dialog", (d) => d.accept());
await page.setViewport({ width: 1360, height: 860 });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// Waits until the page has no request out and no computer move to come.
async function idle() {
  await page.waitForFunction(() => window.MancalaApp && window.MancalaApp.view && window.MancalaApp.idle);
}

const view = () => page.evaluate(() => window.MancalaApp.view);

async function open(game) {
  await page.goto(`${url}?game=${game}&pause=${PAUSE}`, { waitUntil: "networkidle0" });
  await idle();
}

// Starts a game of the picker's current choice with the given seats.
async function newGame(seats) {
  const selects = await page.$$("#seats select");
  for (let i = 0; i < seats.length && i < selects.length; i++) await selects[i].select(seats[i]);
  const before = (await view()).id;
  await page.click("#start");
  await page.waitForFunction((id) => window.MancalaApp.view.id !== id, {}, before);
  await idle();
}

// Starts a game through the API from a position, and reloads the page, which shows it (the page's
// game is the server's).
async function startAt(body) {
  await page.evaluate(async (body) => {
    const r = await fetch("/api/sessions", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const v = await r.json();
    if (!r.ok) throw new Error(v.error);
    localStorage.setItem("mancala.session", v.id);
  }, body);
  await page.goto(`${url}?pause=${PAUSE}`, { waitUntil: "networkidle0" });
  await idle();
}

async function clickPlace(label) {
  await page.click(`#board .place.playable[data-label="${label}"]`);
  await idle();
}

async function clickChoice(label) {
  await page.click(`#choices button[data-label="${label}"]`);
  await idle();
}

const scenarios = {
  // Kalah, clicking the first pit that may be played until the game ends; a reload keeps the game.
  async kalahToTheEnd() {
    await open("kalah");
    await newGame(["human", "random"]);
    let clicks = 0;
    let reloaded = false;
    while (!(await view()).position.result) {
      check(clicks++ < 200, "Kalah did not end after 200 clicks");
      const pit = await page.$("#board .place.playable");
      check(pit, "no pit to click, though the game is not over: " + (await page.$eval("#status", (e) => e.textContent)));
      await pit.click();
      await idle();
      if (clicks === 3 && !reloaded) {
        const before = await view();
        await page.reload({ waitUntil: "networkidle0" });
        await idle();
        const after = await view();
        check(after.id === before.id && after.history.length >= before.history.length, "a reload lost the game");
        reloaded = true;
      }
    }
    const status = await page.$eval("#status", (e) => e.textContent);
    check(status.startsWith("Game over"), "the status does not say the game is over: " + status);
    const moves = await page.$$eval("#history li", (items) => items.length);
    check(moves === (await view()).history.length && moves > 5, "the move list shows " + moves + " plies");
  },

  // Undo and redo with the buttons, and stepping back by a click in the move list.
  async undoRedo() {
    await open("kalah");
    await newGame(["human", "human"]);
    // A start position typed into the form; cleared again for the game played here.
    await page.type("#position", "a13 A1 to_move=1");
    await newGame(["human", "human"]);
    check((await view()).position.counts[0][0] === 13, "the game starts from the position typed");
    await page.$eval("#position", (e) => { e.value = ""; });
    await newGame(["human", "human"]);
    await clickPlace("c"); // into the store: another turn
    await clickPlace("f");
    await clickPlace("A");
    check((await view()).history.length === 3, "three plies played");
    await page.click("#undo");
    await idle();
    check((await view()).history.length === 2, "undo took back one ply");
    await page.click("#redo");
    await idle();
    check((await view()).history.length === 3, "redo played it again");
    await page.click("#history li:first-child button");
    await page.waitForFunction(() => window.MancalaApp.view.history.length === 1);
    await idle();
    check((await view()).redo === 2, "stepping back keeps the plies to redo");
  },

  // A ply is shown step by step: the sowing (a seed lands in c), then the capture (c and D emptied).
  async stepByStep() {
    await open("kalah");
    await startAt({ game: "kalah", seats: ["human", "human"], position: "a2 A1 D3 to_move=1" });
    await page.evaluate(() => {
      window.seenInC = [];
      new MutationObserver(() => {
        const c = document.querySelector('#board .place[data-label="c"] .count');
        if (c) window.seenInC.push(c.textContent);
      }).observe(document.getElementById("board"), { childList: true });
    });
    await clickPlace("a");
    const seen = await page.evaluate(() => window.seenInC.join(" "));
    check(/1.* 0$/.test(seen), "pit c showed a seed, then none: " + seen);
  },

  // A game saved as mancala-game/1 JSON loads again from the file picker.
  async saveAndLoad() {
    await open("kalah");
    await newGame(["human", "human"]);
    await clickPlace("c");
    await clickPlace("f");
    const save = await page.evaluate(async (id) => (await fetch(`/api/sessions/${id}/save`)).text(), (await view()).id);
    check(JSON.parse(save).format === "mancala-game/1", "the save is a mancala-game/1 file");
    const file = path.join(os.tmpdir(), `mancala-e2e-${process.pid}.json`);
    fs.writeFileSync(file, save);
    await page.click("#undo");
    await idle();
    await page.click("#undo");
    await idle();
    check((await view()).history.length === 0, "both plies taken back");
    const input = await page.$("#load");
    await input.uploadFile(file);
    await page.waitForFunction(() => window.MancalaApp.view.history.length === 2);
    fs.unlinkSync(file);
  },

  // Gulek: a sowing asks for the direction and then for each ball, with buttons.
  async gulekMultiStep() {
    await open("gulek");
    await startAt({ game: "gulek", seats: ["human", "human"], position: "1=B 7=RRB phase=playing to_move=1" });
    await clickPlace("7");
    let v = await view();
    check(v.in_turn && v.decision === "direction", "after pit 7, Gulek asks for the direction: " + v.decision);
    const labels = await page.$$eval("#choices button", (b) => b.map((x) => x.dataset.label).filter(Boolean));
    check(labels.includes("cw") && labels.includes("ccw"), "direction buttons: " + labels);
    await clickChoice("cw");
    let steps = 0;
    while ((await view()).in_turn) {
      check(steps++ < 10, "the turn does not end");
      const next = await page.$("#choices button[data-label]");
      check(next, "no choice to make in a turn in progress");
      await next.click();
      await idle();
    }
    v = await view();
    check(v.history.length === 1 && v.history[0].startsWith("7cw"), "the ply is recorded: " + v.history);
    const log = await page.$eval("#log", (e) => e.textContent);
    check(log.includes("7cw"), "the narration tells the ply: " + log);
  },

  // Goré: South offers a hole, North accepts with a button.
  async goreOffer() {
    await open("gore");
    await startAt({
      game: "gore", seats: ["human", "human"],
      position: "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=4 captured(2)=8 to_move=1",
    });
    await page.click('#board .place.playable[data-label="c"]');
    await page.waitForSelector('#choices button[data-label="offer c"]');
    await clickChoice("offer c");
    let v = await view();
    if (v.in_turn) {
      await clickChoice("stop");
      v = await view();
    }
    check(v.offer && v.offer.includes("offers c"), "the offer waits for an answer: " + v.offer);
    await clickChoice("accept");
    v = await view();
    check(v.history.length === 2 && v.history[0].startsWith("offer"), "the plies are the offer and its answer: " + v.history);
    check(v.position.owners[2] === 1, "c is North's now");
  },

  // Three rows: each column holds one pit of each row, North's row on top, the middle row split between
  // the players; a lap from South's i1 runs on into North's O1.
  async threeRows() {
    const rules = fs.readFileSync(new URL("../../tests/data/topology/three-rows.mancala", import.meta.url), "utf8");
    await open("kalah");
    await startAt({ text: rules, name: "three rows", seats: ["human", "human"], position: "i1=2 O3=1 to_move=1" });
    const centre = (label) => page.$eval(`#board .place[data-label="${label}"]`, (g) => {
      const r = g.getBoundingClientRect();
      return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) };
    });
    const [o1, I1, o6, O6, I3, O1, i3] = await Promise.all(["o1", "I1", "o6", "O6", "I3", "O1", "i3"].map(centre));
    check(o1.x === O6.x && o1.x === I3.x, `column 1 holds o1, I3 and O6: ${JSON.stringify([o1, I3, O6])}`);
    check(o6.x === O1.x && o6.x === i3.x, `column 6 holds o6, i3 and O1: ${JSON.stringify([o6, i3, O1])}`);
    check(O6.y < I3.y && I3.y < o1.y && I1.y === i3.y, "North's row on top, the middle row between");
    await clickPlace("i1");
    const v = await view();
    const o = (label) => v.board.places.findIndex((p) => p.label === label);
    check(v.position.counts[o("O1")][0] === 1 && v.position.counts[o("O2")][0] === 1, "i1 sowed into O1 and O2");
  },

  // The editor: an error typed into the rules shows at its line, with its message; fixed, the variant plays.
  async editorDiagnostics() {
    await open("kalah");
    await page.click("#copy");
    const line = await page.evaluate(() => {
      const lines = window.MancalaApp.editor.getText().split("\n");
      return lines.findIndex((l) => l.includes("every pit: 4")) + 1;
    });
    check(line > 0, "the Kalah rules have `every pit: 4`");
    await editLine(line, "every pit: four");
    await page.waitForSelector("#diagnostics li.error");
    const first = await page.$eval("#diagnostics li.error", (e) => ({ line: e.dataset.line, text: e.textContent }));
    check(Number(first.line) === line, `the error is at line ${first.line}, not ${line}: ${first.text}`);
    await page.waitForSelector(".cm-lintRange-error");
    await page.hover(".cm-lintRange-error");
    await page.waitForSelector(".cm-tooltip-lint .cm-diag-message");
    await screenshotTo(screenshot.replace(/\.png$/, "-diagnostic.png"));
    check(await page.$eval("#play-text", (b) => b.disabled), "a file with errors cannot be played");
    await editLine(line, "every pit: 3");
    await page.waitForFunction(() => document.querySelector("#diag-summary").textContent === "no problems");
    const before = (await view()).id;
    await page.click("#play-text");
    await page.waitForFunction((id) => window.MancalaApp.view.id !== id, {}, before);
    await idle();
    const v = await view();
    check(v.origin === "text" && v.position.counts[0][0] === 3, "the edited variant plays with 3 seeds a pit");
    await clickPlace("a");
  },

  // The editor completes what the grammar reads at the cursor, and explains the word under the mouse.
  async editorHelps() {
    await open("kalah");
    await page.click("#copy");
    const line = await page.evaluate(() => {
      const lines = window.MancalaApp.editor.getText().split("\n");
      return lines.findIndex((l) => l.includes("direction ccw")) + 1;
    });
    check(line > 0, "the Kalah rules have `direction ccw`");
    await editLine(line, "direction c");
    await page.waitForSelector(".cm-tooltip-autocomplete .cm-completionLabel");
    const labels = await page.$$eval(".cm-tooltip-autocomplete .cm-completionLabel", (l) => l.map((e) => e.textContent));
    check(labels.includes("ccw") && labels.includes("cw") && !labels.includes("game"), `the completions: ${labels}`);
    await screenshotTo(screenshot.replace(/\.png$/, "-completion.png"));
    await page.keyboard.press("Escape");
    await editLine(line, "direction ccw");
    const point = await page.evaluate(() => {
      const editor = window.MancalaApp.editor;
      const lines = editor.getText().split("\n");
      const row = lines.findIndex((l) => l.includes("capture when"));
      editor.goTo(row + 1, 1);
      const pos = editor.view.state.doc.line(row + 1).from + lines[row].indexOf("capture") + 2;
      const c = editor.view.coordsAtPos(pos);
      return { x: c.left + 1, y: (c.top + c.bottom) / 2 };
    });
    await page.mouse.move(point.x, point.y);
    await page.waitForSelector(".cm-tooltip-hover .cm-doc");
    const text = await page.$eval(".cm-tooltip-hover .cm-doc", (e) => e.textContent);
    check(text.includes("capture") && text.includes("take"), `the hover: ${text}`);
    await screenshotTo(screenshot.replace(/\.png$/, "-hover.png"));
    await page.mouse.move(5, 5);
  },

  // Every game of the picker is drawn with all its places, and its first move can be clicked.
  async everyGameIsDrawn() {
    await open("kalah");
    const names = await page.$$eval("#game option", (options) => options.map((o) => o.value));
    check(names.length >= 5, "the picker lists the games: " + names);
    for (const name of names) {
      await page.select("#game", name);
      // The picked game's rules are in the editor (and its seats drawn) before the new game starts; no seat
      // is the computer's, so that no reply of the last game's computer is still on its way.
      await page.waitForFunction((n) => document.querySelector("#name").value === n, {}, name);
      await idle();
      await newGame(["human", "human"]);
      const v = await view();
      const drawn = await page.$$eval("#board .place", (places) => places.length);
      check(drawn === v.board.places.length, `${name}: ${drawn} of ${v.board.places.length} places drawn`);
      const first = await page.$("#board .place.playable");
      if (first) {
        await first.click();
        await idle();
      } else {
        await page.click("#choices button[data-label]");
        await idle();
      }
      check((await view()).history.length > 0 || (await view()).in_turn, `${name}: the first click played nothing`);
    }
  },

  // "why?" on a narrated ply tells it step by step, each step with the rule of the file that made it.
  async whyTellsAPly() {
    await open("kalah");
    await newGame(["human", "human"]);
    await clickPlace("c");
    await page.click("#log-box summary");
    const whys = await page.$$eval("#log button.why", (b) => b.length);
    check(whys === 1, `one narrated ply, one why?: ${whys}`);
    await page.click("#message button.why");
    await page.waitForSelector("#why:not([hidden])");
    const title = await page.$eval("#why-title", (e) => e.textContent);
    check(title === "Why: ply 1, c by player 1", `the title: ${title}`);
    const steps = await page.$$eval("#why-steps li", (items) => items.map((i) => i.textContent));
    check(steps[0].startsWith("lift 4 from cline 19: from pits(mover) where count > 0"), `the first step: ${steps[0]}`);
    check(steps.some((s) => s.includes("moves again") && s.includes("again when last = store(mover)")), steps.join(" | "));
    // A step under the pointer marks its places on the board.
    await page.hover("#why-steps li:nth-child(2)");
    const marked = await page.$$eval("#board .place.marked", (places) => places.map((p) => p.dataset.label).sort());
    check(marked.join(",") === "d,e,f,store(1)", `the drops marked: ${marked}`);
    await screenshotTo(screenshot && screenshot.replace(/\.png$/, "-why.png"));
    // Taken back, the ply has no why? left in the log.
    await page.click("#undo");
    await idle();
    check((await page.$$eval("#log button.why", (b) => b.length)) === 0, "a ply taken back keeps its why?");
    await page.click("#why-close");
    check(await page.$eval("#why", (e) => e.hidden), "closed");
  },

  // Every shape of board, at a desktop's size and a phone's, after one click (a ply, or a pit chosen and a
  // question asked): the pictures of docs/playing/.
  async everyBoardShape() {
    const dir = screenshot ? path.join(path.dirname(screenshot), "playing") : null;
    if (dir) fs.mkdirSync(dir, { recursive: true });
    const shapes = ["kalah", "oware", "toguz-kumalak", "tchuka-ruma", "gulek", "gabata", "bao-la-kiswahili", "omweso"];
    for (const game of shapes) {
      await page.setViewport({ width: 1280, height: 800 });
      await open(game);
      await newGame(["human", "human", "human", "human"]);
      const first = await page.$("#board .place.playable");
      if (first) await first.click();
      else await page.click("#choices button[data-label]");
      await idle();
      const v = await view();
      check(v.history.length > 0 || v.in_turn, `${game}: the first click played nothing`);
      if (dir) await page.screenshot({ path: path.join(dir, `${game}-1280x800.png`) });
      // Touch targets: every pit that can be played is at least 44 px across.
      const small = () => page.$$eval("#board .place.playable", (places) =>
        places.map((p) => p.getBoundingClientRect()).filter((r) => Math.max(r.width, r.height) < 44).length);
      // The window narrowed to a phone's: the board is drawn anew for its width.
      await page.setViewport({ width: 390, height: 844 });
      await new Promise((done) => setTimeout(done, 300));
      const resized = await small();
      check(resized === 0, `${game}: ${resized} pits smaller than 44 px after the window narrowed`);
      // The same game, opened on a phone.
      await page.reload({ waitUntil: "networkidle0" });
      await idle();
      const opened = await small();
      check(opened === 0, `${game}: ${opened} pits smaller than 44 px on a phone`);
      if (dir) await page.screenshot({ path: path.join(dir, `${game}-390x844.png`) });
    }
    await page.setViewport({ width: 1360, height: 860 });
  },

  // The screenshot of the README: Kalah after a few plies against the computer.
  async screenshot() {
    await open("kalah");
    await newGame(["human", "greedy"]);
    for (const pit of ["c", "f", "b"]) {
      const target = await page.$(`#board .place.playable[data-label="${pit}"]`);
      if (target) {
        await target.click();
        await idle();
      }
    }
    await page.click("#rules-box summary");
    await page.click("#log-box summary");
    await screenshotTo(screenshot);
    // A phone's screen: the page stacks its two halves.
    await page.setViewport({ width: 390, height: 844 });
    await screenshotTo(screenshot.replace(/\.png$/, "-phone.png"));
    await page.setViewport({ width: 1360, height: 860 });
  },
};

// Types over one line of the editor (after its indentation), with the keyboard.
async function editLine(line, text) {
  await page.evaluate((line) => window.MancalaApp.editor.goTo(line, 1000), line);
  await page.keyboard.down("Shift");
  await page.keyboard.press("Home");
  await page.keyboard.up("Shift");
  await page.keyboard.type(text);
}

async function screenshotTo(path) {
  if (path) await page.screenshot({ path });
}

let failed = 0;
const only = process.env.MANCALA_BROWSER_ONLY;
for (const [name, run] of Object.entries(scenarios)) {
  if (only && name !== only) continue;
  const start = Date.now();
  try {
    problems.length = 0;
    await run();
    check(problems.length === 0, problems.join("; "));
    console.log(`ok   ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
    const dir = process.env.MANCALA_FAILURES_DIR;
    if (dir) await page.screenshot({ path: `${dir}/failed-${name}.png` }).catch(() => {});
  }
}
await browser.close();
process.exit(failed ? 1 : 0);
