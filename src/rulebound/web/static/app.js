// rulebound's own front-end module: the live feed, live odds, small conveniences.
// Plain JavaScript, no build step, no third-party code. Pages work without it.

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

// The server renders every fragment with each user-written text escaped. As a second
// wall, fragments are parsed inert (DOMParser never runs scripts) and anything that
// could run code is dropped before they join the page. No innerHTML anywhere.
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href"]);

function inert(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  $$("script, iframe, object, embed, base, meta, link", doc.body).forEach((el) => el.remove());
  $$("*", doc.body).forEach((el) => {
    for (const attr of Array.from(el.attributes)) {
      const url = URL_ATTRIBUTES.has(attr.name) && /^\s*javascript:/i.test(attr.value);
      if (attr.name.startsWith("on") || url) el.removeAttribute(attr.name);
    }
  });
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(doc.body.childNodes).map((node) => document.adoptNode(node)));
  return fragment;
}

const csrfToken = () => $('meta[name="csrf-token"]')?.content || "";

// ---- fair dice: this browser's own contribution to every roll ----
// Each form that rolls dice (data-dice) gets a fresh random contribution made here, right
// after reading the table's current commitment, so the server cannot know it before the
// roll arrives. This browser keeps, per table, each contribution it sent and the
// commitment it was sent under; each of your rolls on the page says whether it is one this
// browser made, and warns where the log holds it under another commitment (the dice were
// re-committed between your view and your roll: it is not the roll you made).

const SENT = "rulebound-dice-sent";
const RECOMMITS = "rulebound-dice-recommits";

function stored(key) {
  try { return JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch { return {}; }
}

function keep(table, commitment, value) {
  try {
    const all = stored(SENT);
    const mine = (all[table] || {});
    mine[value] = commitment;
    const entries = Object.entries(mine).slice(-999);
    all[table] = Object.fromEntries(entries);
    localStorage.setItem(SENT, JSON.stringify(all));
  } catch { /* storage off: the page still shows each contribution */ }
}

function countRecommit(table) {
  try {
    const all = stored(RECOMMITS);
    all[table] = (all[table] || 0) + 1;
    localStorage.setItem(RECOMMITS, JSON.stringify(all));
  } catch { /* storage off */ }
  showRecommits();
}

function showRecommits() {
  $$("[data-recommits]").forEach((note) => {
    const count = stored(RECOMMITS)[note.dataset.recommits] || 0;
    note.hidden = !count;
    note.textContent = `Rolls of yours refused because the dice were re-committed first: ${count}.`;
  });
}

function tableOf(url) {
  const found = /\/api\/tables\/(\d+)\//.exec(url || "");
  return found ? found[1] : "";
}

function freshContribution() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function setField(form, name, value) {
  let input = form.querySelector(`input[type=hidden][name="${name}"]`);
  if (!input) {
    input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    form.append(input);
  }
  input.value = value;
}

// A roll from the character's page loads that page again: its newest result, under the
// buttons, is brought into view once it has loaded (the same page, so the URL stays as is).
const REVEAL = "rulebound-reveal-recent";

function revealRecent() {
  let wanted = null;
  try {
    wanted = sessionStorage.getItem(REVEAL);
    sessionStorage.removeItem(REVEAL);
  } catch { return; }
  if (wanted === location.pathname) $(".recent .entry")?.scrollIntoView({ block: "nearest" });
}

async function contribute(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (/\/roll$/.test(form.action) && !form.hasAttribute("data-stay") && $(".recent, #roll")) {
    try { sessionStorage.setItem(REVEAL, location.pathname); } catch { /* storage off */ }
  }
  if (!form.dataset.dice) {
    if (form.hasAttribute("data-stay")) { event.preventDefault(); stay(form); }
    return;
  }
  event.preventDefault();
  try {
    const response = await fetch(form.dataset.dice, {
      credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store",
    });
    const dice = await response.json();
    if (!response.ok || !dice.commitment) throw new Error("no commitment");
    const value = freshContribution();
    setField(form, "commitment", dice.commitment);
    setField(form, "contribution", value);
    keep(tableOf(form.dataset.dice), dice.commitment, value);
  } catch {
    // Sent without one (not with an earlier roll's, which a form kept in place still
    // holds): the server chooses the contribution and marks the roll so.
    $$('input[type=hidden][name="commitment"], input[type=hidden][name="contribution"]', form)
      .forEach((input) => input.remove());
  }
  if (form.hasAttribute("data-stay")) stay(form);
  else form.submit();
}

// A play made from the table stays on the table: posted in the background, its result
// arrives through the live feed. Refused plays say why beside the button.
async function stay(form) {
  const say = $(".stay-error", form) || document.createElement("p");
  if (!say.parentElement) {
    say.className = "stay-error error";
    say.setAttribute("role", "alert");
    form.append(say);
  }
  const buttons = $$("button[type=submit]", form);
  buttons.forEach((b) => { b.disabled = true; });
  expectOwn(1);
  try {
    const response = await fetch(form.action, {
      method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      if (response.status === 409 && /re-committed/.test(body.detail || "")) {
        countRecommit(tableOf(form.dataset.dice));
      }
      say.textContent = body.message || body.detail || "That did not work; reload the page.";
      say.hidden = false;
      expectOwn(-1);
      return;
    }
    say.hidden = true;
    form.dispatchEvent(new Event("rulebound:sent"));
    const open = form.closest("details.follow, details.turn-start, details.turn-add");
    if (open) open.open = false;
  } catch {
    say.textContent = "The table did not answer; check the connection and try again.";
    say.hidden = false;
    expectOwn(-1);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    $$("form.action", form.parentElement || document).forEach(wirePicker);
  }
}

function checkContributions(root = document) {
  const sent = stored(SENT);
  $$("[data-dice-check]", root).forEach((line) => {
    const code = $("[data-contribution]", line);
    const note = $("[data-contribution-check]", line);
    if (!code || !note) return;
    const under = (sent[line.dataset.table] || {})[code.dataset.contribution];
    line.classList.remove("dice-warning");
    if (under === undefined) {
      note.textContent = "(not made by this browser)";
    } else if (under === line.dataset.commitment) {
      note.textContent = "(made by this browser)";
    } else {
      note.textContent = "(made by this browser under another commitment: the dice were " +
        "re-committed before this roll, so it is not the roll you made)";
      line.classList.add("dice-warning");
      const folded = line.closest("details");
      if (folded) folded.open = true;  // a warning is never left folded away
    }
  });
}

// ---- the live feed (server-sent events, resumed by seq) ----

function startFeed(list) {
  const status = $("[data-live-status]");
  let lastSeq = Number(list.dataset.after || 0);
  let source = null;
  let retryTimer = null;

  const say = (text) => { if (status) status.textContent = text; };

  function show(data) {
    lastSeq = Math.max(lastSeq, data.seq);
    if (document.getElementById("e" + data.id)) return;
    list.prepend(inert(data.html));
    const item = list.firstElementChild;
    if (!item) return;
    $$("form.action", item).forEach(wirePicker);
    checkContributions(item);
    if (data.parent_id) {
      const parent = document.getElementById("e" + data.parent_id);
      if (parent) closeFollowUps(parent);
    }
    if (item && item.dataset.kind === "scene") {
      $$(".entry", list).forEach((entry) => { if (entry !== item) closeFollowUps(entry); });
    }
    // the character's next roll closes the follow-ups of its older ones
    const character = item && item.dataset.character;
    if (character && ["roll", "sheet-action"].includes(item.dataset.kind)) {
      $$(`.entry[data-character="${character}"]`, list).forEach((entry) => {
        if (entry !== item) closeFollowUps(entry);
      });
    }
    if (item.dataset.voids) markVoid(list, item.dataset.voids.split(","));
    if (isMine(list, data) && ownExpected()) {
      expectOwn(-1);
      bringIntoView(item);
    } else {
      cue(list, item);
    }
    announce(item);
    if (!TALK.includes(item.dataset.kind)) refreshFragments();
    chime(item);
  }

  function connect() {
    clearTimeout(retryTimer);
    const url = list.dataset.feed + "?after=" + lastSeq;
    source = new EventSource(url, { withCredentials: true });
    source.addEventListener("open", () => say("Live feed: connected"));
    source.addEventListener("entry", (event) => show(JSON.parse(event.data)));
    source.addEventListener("revoked", () => { source.close(); say("Your seat was revoked."); });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        say("Live feed: reconnecting…");
        retryTimer = setTimeout(connect, 1500);
      } else {
        say("Live feed: reconnecting…");
      }
    });
  }

  list.dataset.ready = "1";
  connect();
}

// A void marks the chain it names, and the follow-ups made on it stand marked void with it
// (oldest first, so a follow-up's parent is marked before it), as the server renders them.
function markVoid(list, ids) {
  const voided = new Set(ids);
  $$(".entry", list).reverse().forEach((entry) => {
    if (entry.dataset.parent && voided.has(entry.dataset.parent)) voided.add(entry.id.slice(1));
    if (!voided.has(entry.id.slice(1)) || entry.classList.contains("voided")) return;
    entry.classList.add("voided");
    closeFollowUps(entry);
    $$(".gm-moves", entry).forEach((box) => box.remove());
    const tag = document.createElement("span");
    tag.className = "tag void-tag";
    tag.textContent = "void";
    $(".meta", entry)?.append(" ", tag);
  });
}

// ---- the result where the roller looks ----
// A play sent from this page (stay) expects an entry of this member: when it arrives it is
// scrolled just into view, on a phone under the buttons that made it, on a desktop back up
// to the log's top after a follow-up confirmed lower down. Anyone else's entry never moves
// the page: it lights up, and a button offers to go to it if the log's top is out of sight.
let ownPending = 0;
let ownUntil = 0;
let inView = null;

function expectOwn(step) {
  ownPending = Math.max(0, ownPending + step);
  if (step > 0) ownUntil = Date.now() + 20000;
}

const ownExpected = () => ownPending > 0 && Date.now() < ownUntil;
const isMine = (list, data) => String(data.actor_id) === list.dataset.member;
const still = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

function bringIntoView(item) {
  $$(".entry[data-mine-now]").forEach((old) => old.removeAttribute("data-mine-now"));
  item.dataset.mineNow = "";  // data, not a class: an entry's classes are the server's
  inView = { item, until: Date.now() + 2500 };
  item.scrollIntoView({ block: "nearest", behavior: still() ? "auto" : "smooth" });
  hideArrivals();
}

// the panels above the log may change height as they refresh: keep the new result in view
function keepInView() {
  if (!inView || Date.now() > inView.until || !inView.item.isConnected) return;
  inView.item.scrollIntoView({ block: "nearest" });
}

function cue(list, item) {
  $$(".entry[data-arrived]", list).forEach((old) => { if (old !== item) old.removeAttribute("data-arrived"); });
  item.dataset.arrived = "";
  const top = list.getBoundingClientRect().top;
  if (top < 0) showArrivals(item);
}

function showArrivals(item) {
  const box = $(".arrivals");
  const button = $("[data-arrivals]");
  if (!box || !button) return;
  const words = sentence(item);
  button.textContent = "New in the log: " + (words.length > 70 ? words.slice(0, 67) + "…" : words);
  box.hidden = false;
}

function hideArrivals() {
  const box = $(".arrivals");
  if (box) box.hidden = true;
}

function watchArrivals(list) {
  const button = $("[data-arrivals]");
  if (!button) return;
  button.addEventListener("click", () => {
    const first = list.firstElementChild;
    hideArrivals();
    if (first) {
      first.scrollIntoView({ block: "start", behavior: still() ? "auto" : "smooth" });
      $("summary, button, a", first)?.focus({ preventScroll: true });
    }
  });
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) hideArrivals(); })
      .observe($(".feed-head") || list);
  }
}

// ---- each new entry in words, for screen readers (the role="log" region) ----
function sentence(item) {
  const text = (selector) => ($(selector, item)?.textContent || "").replace(/\s+/g, " ").trim();
  const who = text(".meta .who");
  const character = text(".meta .char");
  const privacy = text(".meta .privacy");
  const title = text(".card .title");
  let said;
  if (title) {
    const chance = $(".card .chance", item)?.dataset.said;
    const what = item.dataset.parent ? "followed up" : item.dataset.kind === "reveal" ? "revealed" : "rolled";
    said = `${who}${character ? ` for ${character}` : ""} ${what}: ${title}. ${text(".card .outcome")}.`;
    if (chance) said += ` It had ${chance}.`;
  } else {
    const summary = text(".summary");
    said = who && !summary.startsWith(who) ? `${who}: ${summary}` : summary;
  }
  if (privacy) said += ` (${privacy})`;
  if (item.classList.contains("voided")) said += " Void.";
  return said;
}

function announce(item) {
  const region = $("[data-announce]");
  if (!region) return;
  const line = document.createElement("p");
  line.textContent = sentence(item);
  region.append(line);
  while (region.childElementCount > 20) region.firstElementChild.remove();
}

function closeFollowUps(entry) {
  $$(".follow-ups", entry).forEach((box) => box.remove());
  $$("form.action", entry).forEach((form) => form.remove());
}

// The panels beside the feed (characters, who is who, the GM's tools) follow the table
// live; a panel being used (focus inside, or a dialog open) keeps what its user is doing.
// Table talk (a message, an emote, a free roll) changes nothing a panel shows, so it
// fetches none of them: at a table that chats, most entries are talk.
const TALK = ["talk", "free-roll"];
let refreshTimer = null;

function refreshFragments() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => $$("[data-fragment]").forEach(refreshBox), 150);
}

function afterRelease(then) {
  const once = () => {
    document.removeEventListener("pointerup", once, true);
    document.removeEventListener("pointercancel", once, true);
    then();
  };
  document.addEventListener("pointerup", once, true);
  document.addEventListener("pointercancel", once, true);
}

// What each panel last showed, as the server sent it: a refresh that brings the same
// HTML leaves the panel alone (most entries change no panel), so nothing in it is
// rebuilt under its user and the browser lays nothing out again.
const shown = new WeakMap();

function refreshBox(box) {
  fetch(box.dataset.fragment, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
    .then((html) => {
      if (shown.get(box) === html) return;
      const fresh = inert(html);
      const focused = box.contains(document.activeElement) ? document.activeElement : null;
      if (focused && focused.matches("input, select, textarea")) {
        box.addEventListener("focusout", () => refreshFragments(), { once: true });
        return;  // someone is typing here: refresh once they leave
      }
      if (box.querySelector(":active")) {
        afterRelease(refreshFragments);
        return;  // a button held down here: swapped now, its release would make no click
      }
      const label = focused && focused.getAttribute("aria-label");
      $$("details[open][id]", box).forEach((old) => {
        const twin = fresh.getElementById ? fresh.getElementById(old.id) : $("#" + old.id, fresh);
        if (twin) twin.replaceWith(old);
      });
      box.replaceChildren(fresh);
      shown.set(box, html);
      wire(box);
      if (label) $$("[aria-label]", box).find((el) => el.getAttribute("aria-label") === label)?.focus();
      keepInView();
    })
    .catch(() => {});
}

// An optional sound for a new roll: off unless switched on, remembered by this browser.
const SOUND = "rulebound-sound";

function soundToggle() {
  const box = $("[data-sound]");
  if (!box) return;
  box.checked = localStorage.getItem(SOUND) === "on";
  box.addEventListener("change", () => localStorage.setItem(SOUND, box.checked ? "on" : "off"));
  box.closest("label").hidden = false;
}

function chime(item) {
  if (!item || !["roll", "follow-up", "reveal"].includes(item.dataset.kind)) return;
  if (localStorage.getItem(SOUND) !== "on") return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch { /* no audio here */ }
}

// ---- exact chances, refreshed as the roll dialog changes ----

function watchChances(form) {
  if (form.dataset.watched) return;
  form.dataset.watched = "1";
  const table = $("[data-chances-output] tbody", form);
  const error = $("[data-chances-error]", form);
  let timer = null;
  let asked = 0;

  function render(rows) {
    table.replaceChildren(...rows.map((row) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = row.label;
      const impossible = row.float === 0;  // "impossible", never "0.0% 0/1"
      const percent = document.createElement("td");
      percent.textContent = impossible ? "impossible" : row.percent;
      const exact = document.createElement("td");
      exact.className = "exact";
      exact.textContent = impossible ? "" : row.p;
      tr.append(th, percent, exact);
      return tr;
    }));
  }

  async function refresh() {
    const ticket = ++asked;
    const response = await fetch(form.dataset.chances, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-CSRF-Token": csrfToken(), Accept: "application/json" },
      credentials: "same-origin",
    });
    const body = await response.json().catch(() => ({}));
    if (ticket !== asked) return;
    if (response.ok) {
      error.hidden = true;
      render(body.chances);
    } else {
      error.hidden = false;
      error.textContent = body.message || body.detail || "Cannot compute the chances.";
      render([]);  // old chances must not stay on screen beside an error
    }
  }

  // toggles that apply to some skills only are shown for those
  function applies() {
    $$("[data-shown-for]", form).forEach((box) => {
      const other = form.elements.namedItem(box.dataset.shownFor);
      const value = other && "value" in other ? other.value : "";
      const fits = box.dataset.shownValues.split("|").includes(value);
      box.hidden = !fits;
      $$("input, select, textarea", box).forEach((input) => {
        input.disabled = !fits;
      });
    });
  }

  form.addEventListener("change", () => {
    applies();
    clearTimeout(timer);
    timer = setTimeout(refresh, 120);
  });
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 250); });
  applies();
}

// ---- small conveniences ----

function wire(root = document) {
  $$("[data-select-all]", root).forEach((input) => input.addEventListener("focus", () => input.select()));
  $$("[data-back]", root).forEach((link) => link.addEventListener("click", (event) => {
    if (history.length > 1) { event.preventDefault(); history.back(); }
  }));
  $$("[data-copy]", root).forEach((button) => button.addEventListener("click", async () => {
    const input = document.getElementById(button.dataset.copy);
    if (!input) return;
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  }));
  $$("form.action", root).forEach(wirePicker);
  $$("form[data-chances]", root).forEach(watchChances);
  $$("form[data-odds]", root).forEach(watchOdds);
  $$("form.talk", root).forEach(watchAudience);
}

// Who hears the next line, said in the box itself: the choice stays for the next message,
// as a roll mode does, so the box shows it rather than let a private line go out unnoticed.
function watchAudience(form) {
  const box = $("input[name=text]", form);
  const to = $("select[name=privacy]", form);
  if (!box || !to || form.dataset.audience) return;
  form.dataset.audience = "1";
  const plain = box.placeholder;
  const update = () => {
    const quiet = to.value !== "public";
    form.toggleAttribute("data-private", quiet);
    box.placeholder = quiet ? `Heard by: ${to.selectedOptions[0].textContent.trim()}` : plain;
  };
  to.addEventListener("change", update);
  update();
}

// The exact odds of a "/r" roll, shown as it is typed; the box empties once it is sent.
function watchOdds(form) {
  const box = $("input[name=text]", form);
  const out = $("[data-odds-output]", form);
  let timer = null;
  box.addEventListener("input", () => {
    clearTimeout(timer);
    const text = box.value.trim();
    if (!/^\/r\s/i.test(text)) { out.textContent = ""; return; }
    timer = setTimeout(async () => {
      const response = await fetch(`${form.dataset.odds}?text=${encodeURIComponent(text)}`,
        { credentials: "same-origin", headers: { Accept: "application/json" } });
      const body = await response.json().catch(() => ({}));
      if (box.value.trim() === text) out.textContent = body.odds || body.message || "";
    }, 200);
  });
  form.addEventListener("rulebound:sent", () => { box.value = ""; out.textContent = ""; });
}

// Say which dice are picked, on the button that rerolls them; with none picked, there is
// nothing to reroll yet.
function wirePicker(form) {
  if (form.dataset.wired) return;
  const boxes = $$(".picker input[type=checkbox]", form);
  const button = $("button[type=submit]", form);
  if (!boxes.length || !button) return;
  form.dataset.wired = "1";
  const label = button.textContent;
  const update = () => {
    // counted from 1, as the advice and the dice's labels count them (a box's value is its index)
    const picked = boxes.filter((b) => b.checked).map((b) => "#" + (Number(b.value) + 1));
    button.textContent = picked.length ? `${label} (${picked.join(", ")})` : label;
    button.disabled = !picked.length;
  };
  form.addEventListener("change", update);
  update();
}

// Keyboard: r rolls (focuses the first one-click roll), d opens the full dialog,
// k keeps the newest result, p opens its first follow-up.
function shortcuts(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const newest = $("#feed .entry .follow-ups");
  const act = {
    r: () => $("#characters .quick-roll button")?.focus(),
    d: () => {
      const more = $("#characters details.roll-more");
      if (more) { more.open = true; $("select, input", more)?.focus(); }
    },
    k: () => newest && $("button.keep", newest)?.focus(),
    p: () => {
      const follow = newest && $("details.follow", newest);
      if (follow) { follow.open = true; $("summary", follow).focus(); }
    },
  }[event.key];
  if (act) { event.preventDefault(); act(); }
}

function init() {
  const feed = $("#feed[data-feed]");
  if (feed) { startFeed(feed); watchArrivals(feed); }
  if (location.hash === "#invites") { const fold = $("#invites details"); if (fold) fold.open = true; }
  document.addEventListener("submit", contribute);
  document.addEventListener("keydown", shortcuts);
  checkContributions();
  revealRecent();
  showRecommits();
  soundToggle();
  wire();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
