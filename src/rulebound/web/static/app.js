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
// roll arrives. The contributions sent are kept in this browser, and each of your rolls
// on the page says whether its contribution is one this browser made.

const SENT = "rulebound-contributions";

function sentHere() {
  try { return new Set(JSON.parse(localStorage.getItem(SENT) || "[]")); } catch { return new Set(); }
}

function keep(value) {
  try {
    const list = JSON.parse(localStorage.getItem(SENT) || "[]").slice(-999);
    list.push(value);
    localStorage.setItem(SENT, JSON.stringify(list));
  } catch { /* storage off: the page still shows each contribution */ }
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

async function contribute(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.dice) return;
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
    keep(value);
  } catch {
    // Sent without one: the server chooses the contribution and marks the roll so.
  }
  form.submit();
}

function checkContributions(root = document) {
  const mine = sentHere();
  $$("[data-contribution]", root).forEach((code) => {
    const note = code.parentElement.querySelector("[data-contribution-check]");
    if (note) note.textContent = mine.has(code.dataset.contribution)
      ? "(made by this browser)" : "(not made by this browser)";
  });
}

// ---- the live feed (server-sent events, resumed by seq) ----

function startFeed(list) {
  const status = $("[data-live-status]");
  let lastSeq = Number(list.dataset.after || 0);
  let source = null;
  let retryTimer = null;

  const say = (text) => { if (status) status.textContent = text; };

  function refreshCharacters() {
    const url = list.dataset.characters;
    const box = $("#characters");
    if (!url || !box) return;
    fetch(url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((html) => { box.replaceChildren(inert(html)); })
      .catch(() => {});
  }

  function show(data) {
    lastSeq = Math.max(lastSeq, data.seq);
    if (document.getElementById("e" + data.id)) return;
    list.prepend(inert(data.html));
    $$("form.action", list.firstElementChild).forEach(wirePicker);
    checkContributions(list.firstElementChild);
    if (data.parent_id) {
      const parent = document.getElementById("e" + data.parent_id);
      if (parent) $$("form.action", parent).forEach((form) => form.remove());
    }
    if (data.changed && data.changed.length) refreshCharacters();
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

// ---- exact chances, refreshed as the roll dialog changes ----

function watchChances(form) {
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
      const percent = document.createElement("td");
      percent.textContent = row.percent;
      const exact = document.createElement("td");
      exact.className = "exact";
      exact.textContent = row.p;
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
      error.textContent = body.detail || "Cannot compute the chances.";
    }
  }

  form.addEventListener("change", () => { clearTimeout(timer); timer = setTimeout(refresh, 120); });
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 250); });
}

// ---- small conveniences ----

function conveniences() {
  $$("[data-select-all]").forEach((input) => input.addEventListener("focus", () => input.select()));
  $$("[data-back]").forEach((link) => link.addEventListener("click", (event) => {
    if (history.length > 1) { event.preventDefault(); history.back(); }
  }));
  $$("form.action").forEach(wirePicker);
}

// Say which dice are picked, on the button that rerolls them.
function wirePicker(form) {
  const boxes = $$(".picker input[type=checkbox]", form);
  const button = $("button[type=submit]", form);
  if (!boxes.length || !button) return;
  const label = button.textContent;
  const update = () => {
    const picked = boxes.filter((b) => b.checked).map((b) => "#" + b.value);
    button.textContent = picked.length ? `${label} (${picked.join(", ")})` : label;
  };
  form.addEventListener("change", update);
  update();
}

function init() {
  const feed = $("#feed[data-feed]");
  if (feed) startFeed(feed);
  $$("form[data-chances]").forEach(watchChances);
  document.addEventListener("submit", contribute);
  checkContributions();
  conveniences();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
