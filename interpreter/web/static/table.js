// The browser table: draws what the server sends this seat and sends the
// moves the player points at. The seat's secret token is the link's '#'
// part, which the browser never sends in a request; the script sends it
// once, in the socket's first message. Everything the server sends that
// came from a rulebook is put on the page as text (textContent), except the
// drawings, which the server made as SVG with every text escaped.
"use strict";

const token = decodeURIComponent(location.hash.slice(1));
let socket = null;
let table = null;          // the last message of type "table"
let picks = [];            // the tokens pointed at so far
let named = null;          // the action name chosen, when several are possible
let retry = 500;
let latest = -1;           // the version of the newest table message: an older one is dropped
let optionsKey = "";       // the options pointed at: the picks start again when they change
const COMPONENTS_OPEN = 12;   // a table of the pieces' values of at most so many rows is open
const REPLAY_MS = 150;        // the replay slider asks for a step at most so often

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "spectator";
  return seat < 0 ? "chance" : "P" + seat;
}

// -- the socket --------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    latest = -1;            // a server started again counts its versions anew
    $("connection").textContent = "connected";
    $("connection").className = "connection up";
    send({type: "hello", token: token});
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "table") show(message);
    else if (message.type === "refused") refused(message);
  });
  socket.addEventListener("close", (event) => {
    $("connection").className = "connection down";
    if (event.code === 1008) {
      $("connection").textContent = "not seated: this link sits nobody at this table";
      return;
    }
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  $("message").hidden = true;
  send({type: "act", action: text});
}

function refused(message) {
  const box = $("message");
  box.textContent = message.text;
  box.dataset.code = message.code;
  box.hidden = false;
}

// -- what the seat is shown ----------------------------------------------------------
function show(message) {
  if (message.version < latest) return;           // sent before one already shown
  latest = message.version;
  const key = message.options.map((o) => o.text).join("\n");
  const fresh = !table || key !== optionsKey || table.step !== message.step;
  optionsKey = key;
  table = message;
  if (fresh) { picks = []; named = null; $("message").hidden = true; }
  $("trouble").hidden = !message.trouble;
  $("trouble").textContent = message.trouble || "";
  document.title = `${message.game} — ${seatName(message.seat)}`;
  $("title").textContent = message.game;
  $("seat").textContent = message.seat === null ? "watching" : `you are ${seatName(message.seat)}`;
  drawBoard(message);
  drawComponents(message);
  drawStatus(message);
  drawValues(message);
  drawLog(message);
  drawOutcome(message);
  drawUndo(message);
  drawList(message);
  drawChoosing();
}

function drawBoard(message) {
  const board = $("board");
  board.replaceChildren();
  for (const section of message.sections) {
    const box = el("section", {class: `table-section ${section.kind}`, "data-key": section.key});
    const title = el("h2", {}, section.title);
    if (section.owner !== null && section.owner !== undefined) title.dataset.owner = section.owner;
    const picture = el("div", {class: "picture"});
    picture.innerHTML = section.svg;          // SVG drawn by the server, every text escaped
    box.append(title, picture);
    board.append(box);
  }
}

// the values of the pieces the view tables (a piece's `has` values and its
// variables), a table per type, beside the board
function drawComponents(message) {
  for (const [kind, rows] of Object.entries(message.components || {})) {
    if (!rows.length) continue;
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const head = el("tr", {}, ...columns.map((c) => el("th", {}, c)));
    const body = rows.map((r) => el("tr", {}, ...columns.map((c) => el("td", {}, text(r[c])))));
    const box = el("details", {class: "table-section components", "data-key": `components:${kind}`},
      el("summary", {}, `${kind} (${rows.length})`), el("table", {class: "values"}, head, ...body));
    box.open = rows.length <= COMPONENTS_OPEN;
    $("board").append(box);
  }
}

function text(value) {
  if (value === null || value === undefined) return "-";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value) && value.length === 2 && value.every(Number.isInteger)) return `(${value[0]},${value[1]})`;
  if (Array.isArray(value)) return value.map(text).join(" ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function drawStatus(message) {
  const status = $("status");
  const pending = message.pending;
  if (message.over && message.step < message.steps) {
    status.textContent = `Replaying: step ${message.step} of ${message.steps}.`;
    status.className = "";
  } else if (message.outcome) {
    const winners = message.outcome.winners.map(seatName).join(", ");
    status.textContent = message.outcome.draw ? "The game is over: a draw."
      : `The game is over: ${winners || "nobody"} won.`;
    status.className = "";
  } else if (message.seat !== null && message.to_move.includes(message.seat)) {
    status.textContent = `Your turn: ${pending ? pending.label : "decide"}.`;
    status.className = "yours";
  } else {
    const who = message.to_move.map(seatName).join(", ");
    status.textContent = `Waiting for ${who}` + (pending ? ` to ${pending.label}.` : ".");
    status.className = "";
  }
  const counters = Object.entries(message.header.counters).map(([k, v]) => `${k} ${v}`);
  $("counters").textContent = counters.join(" · ");
}

function drawValues(message) {
  const box = $("values");
  box.replaceChildren();
  const perPlayer = message.header.player_variables;
  const names = Object.keys(perPlayer);
  if (names.length) {
    const seats = [...new Set(names.flatMap((n) => Object.keys(perPlayer[n])))];
    const head = el("tr", {}, el("th", {}, ""), ...seats.map((s) => el("th", {}, s)));
    const rows = names.map((n) => el("tr", {}, el("th", {}, n),
      ...seats.map((s) => el("td", {}, String(perPlayer[n][s] ?? "")))));
    box.append(el("table", {class: "values"}, head, ...rows));
  }
  const variables = Object.entries(message.header.variables);
  if (variables.length) {
    box.append(el("table", {class: "values"},
      ...variables.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v))))));
  }
}

function drawLog(message) {
  const log = $("log");
  log.replaceChildren(...message.log.map((entry, k) =>
    el("li", {value: String(k + 1)}, `${seatName(entry.player)}: ${entry.text}`)));
  for (const text of message.events) log.append(el("li", {class: "event"}, text));
  log.scrollTop = log.scrollHeight;
}

function drawOutcome(message) {
  const box = $("outcome");
  const outcome = message.outcome;
  box.hidden = !outcome;
  $("replay").hidden = !message.over;
  if (!outcome) return;
  box.replaceChildren(el("h2", {}, "The end"));
  const parts = [...new Set(outcome.parts.flatMap((p) => Object.keys(p)))];
  const head = el("tr", {}, el("th", {}, ""), ...parts.map((p) => el("th", {}, p)),
                  el("th", {}, "score"));
  const rows = outcome.scores.map((score, p) => el("tr",
    {class: outcome.winners.includes(p) ? "winner" : ""},
    el("th", {}, seatName(p)), ...parts.map((name) => el("td", {}, String(outcome.parts[p][name] ?? ""))),
    el("td", {}, String(score))));
  box.append(el("table", {class: "breakdown"}, head, ...rows));
  const decided = outcome.decided_by === "score" ? "decided by the score"
    : outcome.decided_by === "tie" ? "a tie on every count"
    : outcome.decided_by === "winners" ? "decided by the rulebook's rule of who wins"
    : `decided by the tie-break: ${outcome.decided_by}`;
  box.append(el("p", {}, decided + (outcome.lowest_wins ? " (the lowest score wins)" : "")));
  const slider = $("replay-step");
  slider.max = String(message.steps);
  slider.value = String(message.step);
  $("replay-at").textContent = `${message.step} of ${message.steps}`;
}

function drawUndo(message) {
  const box = $("undo-box");
  box.replaceChildren();
  if (message.seat === null) return;
  const asked = message.undo;
  if (asked && asked.waiting.includes(message.seat)) {
    box.append(el("p", {}, `${seatName(asked.by)} asks to take back their last move.`),
      el("button", {id: "agree", onclick: () => send({type: "agree", yes: true})}, "Agree"),
      el("button", {id: "refuse", onclick: () => send({type: "agree", yes: false})}, "Refuse"));
  } else if (asked) {
    box.append(el("p", {}, `Undo asked by ${seatName(asked.by)}: waiting for `
      + asked.waiting.map(seatName).join(", ")));
  } else if (message.steps && !message.outcome) {
    box.append(el("button", {id: "undo", onclick: () => send({type: "undo"})},
                  "Ask to undo my last move"));
  }
}

function drawList(message) {
  const list = $("actions");
  const options = message.options;
  $("list").hidden = !options.length;
  list.replaceChildren(...options.slice(0, 500).map((o) =>
    el("button", {class: "action", "data-text": o.text, onclick: () => act(o.text)}, o.text)));
  if (options.length > 500) list.append(el("p", {}, `… and ${options.length - 500} more: type one.`));
  $("typed-options").replaceChildren(...options.slice(0, 2000).map((o) => el("option", {value: o.text})));
}

// -- pointing -------------------------------------------------------------------------
// An option is still possible while the tokens pointed at can be taken, in
// order, from its steps: a step of one value takes that value, a set's step
// takes its pieces in any order.
function progress(option, tokens) {
  let i = 0, rest = null;
  for (const t of tokens) {
    if (i >= option.steps.length) return null;
    const step = option.steps[i];
    if (rest === null) rest = step.tokens.slice();
    if (!step.many) {
      if (rest[0] !== t) return null;
      i += 1; rest = null;
      continue;
    }
    const k = rest.indexOf(t);
    if (k < 0) return null;
    rest.splice(k, 1);
    if (!rest.length) { i += 1; rest = null; }
  }
  return {i, rest};
}

function possible() {
  const out = [];
  for (const option of table.options) {
    if (named !== null && option.name !== named) continue;
    const at = progress(option, picks);
    if (at) out.push([option, at]);
  }
  return out;
}

// token -> where it may be pointed at: {title, anywhere, zones, buttons}
function nextTokens(possibles) {
  const next = new Map();
  for (const [option, at] of possibles) {
    if (at.i >= option.steps.length) continue;
    const step = option.steps[at.i];
    const rest = at.rest ?? step.tokens;
    for (const t of step.many ? rest : [rest[0]]) {
      const where = next.get(t) || {title: step.title, anywhere: false, zones: new Set(), buttons: true};
      if (!step.buttons) {
        where.buttons = false;
        if (step.zones && step.zones.length) step.zones.forEach((z) => where.zones.add(z));
        else where.anywhere = true;
      }
      next.set(t, where);
    }
  }
  return next;
}

// the token a drawn element may be pointed at for now, or null: its own
// (a piece, a cell, a hex), or the piece lying on it (a cell's data-piece)
function tokenOf(node, next) {
  for (const attr of ["data-token", "data-piece"]) {
    const t = node.getAttribute(attr);
    if (t !== null && next.has(t) && pointable(node, next.get(t))) return t;
  }
  return null;
}

// whether a drawn element may be pointed at for a token's step
function pointable(node, where) {
  if (where.buttons) return false;
  if (where.anywhere) return true;
  const zone = node.getAttribute("data-zone") || "";
  for (const z of where.zones) if (zone === z || zone.startsWith(z + "(")) return true;
  return false;
}

function pick(tokenText) {
  picks.push(tokenText);
  $("message").hidden = true;
  drawChoosing();
}

function drawChoosing() {
  const board = $("board");
  for (const node of board.querySelectorAll(".legal, .picked")) node.classList.remove("legal", "picked");
  for (const box of ["names", "choices", "confirm", "picked"]) $(box).replaceChildren();
  $("choose").hidden = !table || !table.options.length;
  if (!table || !table.options.length) return;
  const possibles = possible();
  const next = nextTokens(possibles);
  const onBoard = new Set();
  for (const node of board.querySelectorAll("[data-token]")) {
    const t = tokenOf(node, next);
    if (t !== null) { node.classList.add("legal"); onBoard.add(t); }
  }
  const counts = new Map();
  for (const t of picks) counts.set(t, (counts.get(t) || 0) + 1);
  for (const node of board.querySelectorAll("[data-token]")) {
    const t = node.getAttribute("data-token");
    if (counts.get(t) > 0) {
      node.classList.add("picked");
      counts.set(t, counts.get(t) - 1);
    }
  }
  if (picks.length || named !== null) {
    $("picked").append(el("span", {}, "Chosen: " + [named, ...picks].filter((x) => x !== null).join(", ")),
      el("button", {id: "clear", onclick: () => { picks = []; named = null; drawChoosing(); }}, "Start again"));
  }
  // the action names, while nothing is chosen and several are possible
  const names = [...new Set(table.options.map((o) => o.name))];
  if (!picks.length && named === null && names.length > 1) {
    for (const name of names) {
      const bare = table.options.find((o) => o.name === name && !o.steps.length);
      $("names").append(el("button", {class: bare ? "name bare" : "name", "data-name": name,
        onclick: () => { if (bare) act(bare.text); else { named = name; drawChoosing(); } }},
        name.replaceAll("_", " ")));
    }
  }
  // values no board shows: buttons, with the piece as it will lie where it turns
  for (const [t, where] of next) {
    if (onBoard.has(t)) continue;
    const button = el("button", {class: "choice", "data-token": t, title: where.title,
                                 onclick: () => pick(t)});
    const preview = previewFor(possibles, t);
    if (preview) {
      const picture = el("span", {class: "preview"});
      picture.innerHTML = preview;          // SVG drawn by the server, every text escaped
      button.append(picture);
    }
    button.append(el("span", {}, t));
    $("choices").append(button);
  }
  if (next.size) {
    const titles = [...new Set([...next.values()].map((w) => w.title))];
    const buttons = $("choices").children.length;
    $("choices").prepend(el("div", {class: "asked"}, "Choose " + titles.join(" or ")
      + (onBoard.size && buttons ? " (on the board, or below)" : onBoard.size ? " on the board" : "")));
  }
  // the options the choices so far complete
  for (const [option, at] of possibles) {
    if (at.i < option.steps.length) continue;                 // more of it to point at
    if (!picks.length && named === null && names.length > 1) continue;   // a bare name button plays it
    $("confirm").append(el("button", {class: "confirm", "data-text": option.text,
      onclick: () => act(option.text)}, "Play: " + option.text));
  }
}

// the piece an option turns, drawn as it will lie with `value` turns: a piece
// named by an earlier step that the server sent turned drawings of
function previewFor(possibles, value) {
  for (const [option, at] of possibles) {
    const step = option.steps[at.i];
    if (!step || step.many || step.tokens[0] !== value) continue;
    for (const earlier of option.steps.slice(0, at.i)) {
      for (const t of earlier.tokens) {
        const turned = table.previews[t];
        if (turned && turned[value]) return turned[value];
      }
    }
  }
  return null;
}

// -- wiring -------------------------------------------------------------------------
document.addEventListener("DOMContentLoaded", () => {
  $("board").addEventListener("click", (event) => {
    const node = event.target.closest("[data-token].legal");
    if (!node || !table) return;
    const t = tokenOf(node, nextTokens(possible()));
    if (t !== null) pick(t);
  });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("typed-text").value.trim();
    if (text) act(text);
  });
  // the slider asks for a step at most every REPLAY_MS while it moves, and
  // always for the one it stops at
  let replayTimer = null;
  const replayTo = () => {
    replayTimer = null;
    const step = Number($("replay-step").value);
    send({type: "replay", step: step === table.steps ? null : step});
  };
  $("replay-step").addEventListener("input", () => {
    if (replayTimer === null) replayTimer = setTimeout(replayTo, REPLAY_MS);
  });
  $("replay-step").addEventListener("change", () => {
    if (replayTimer !== null) clearTimeout(replayTimer);
    replayTo();
  });
  fetch("/rules").then((r) => r.text()).then((text) => {
    $("rules").textContent = text || "This rulebook has no player rules beside it.";
  });
  if (!token) {
    $("connection").textContent = "open the link serve printed for your seat";
    return;
  }
  connect();
});
