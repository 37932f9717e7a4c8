// The story of the dice follows the table live: each new entry of the feed (server-sent
// events) fetches the figures and charts again, a moment later, at most one fetch at a time.
// Fetched HTML is parsed inert (DOMParser runs no script) before it replaces the old.

function start(box) {
  const status = document.querySelector("[data-live-status]");
  const say = (text) => { if (status) status.textContent = text; };
  let timer = null;
  let busy = false;
  let again = false;

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(box.dataset.story, { credentials: "same-origin" });
      if (answer.ok) {
        const parsed = new DOMParser().parseFromString(await answer.text(), "text/html");
        const open = new Set([...box.querySelectorAll("details[open] summary")].map((s) => s.textContent));
        box.replaceChildren(...parsed.body.childNodes);
        box.querySelectorAll("details summary").forEach((s) => { if (open.has(s.textContent)) s.parentElement.open = true; });
        say("Updated with the latest roll");
      }
    } catch (error) {
      say("Could not update: the figures shown are from before");
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  const source = new EventSource(box.dataset.feed + "?after=" + (box.dataset.after || 0), { withCredentials: true });
  source.addEventListener("entry", () => { clearTimeout(timer); timer = setTimeout(refresh, 300); });
  source.addEventListener("error", () => say("Live updates: reconnecting…"));
  source.addEventListener("open", () => say(""));
}

const box = document.querySelector("[data-story]");
if (box) start(box);
