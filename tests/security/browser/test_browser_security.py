"""Issue 8, test 7 (in the browser): in real Chromium, a cross-site POST, a same-site POST
from another port and a POST without the token all get 403; hostile names render as
text and run nothing, on the page and through the live feed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, Page, Response, expect

from ...web.browser.conftest import Table, new_character, roll, wait_live
from .conftest import Attacker

pytestmark = pytest.mark.browser

HOSTILE_PLAYER = "<img src=x onerror=alert('player')>"
HOSTILE_CHARACTER = "<script>alert('character')</script>"
HOSTILE_TABLE = '"><svg onload=alert("table")>'


def _attack_page(app_url: str, table_id: str, csrf: str) -> str:
    """A page on another origin posting to the table (with the victim's real token, so
    only the origin check stands between it and a new character)."""
    return f"""<!doctype html><title>win a prize</title>
<form method="post" action="{app_url}/t/{table_id}/characters">
  <input name="name" value="Evil"><input name="csrf" value="{csrf}">
  <button type="submit">Claim</button>
</form>"""


def _attack(table: Table, attacker: Attacker, host: str) -> Response:
    victim = table.gm
    csrf = victim.locator('meta[name="csrf-token"]').get_attribute("content")
    assert csrf
    table_id = table.url.rstrip("/").rsplit("/", 1)[1]
    attacker.page = _attack_page(table.server.url, table_id, csrf)
    evil = victim.context.new_page()  # the victim's browser: their cookie goes along
    evil.goto(attacker.url(host))
    with evil.expect_response(lambda r: r.request.method == "POST") as answer:
        evil.get_by_role("button", name="Claim").click()
    return answer.value


def _no_evil_character(table: Table) -> None:
    table.gm.reload()
    expect(table.gm.locator("#characters")).not_to_contain_text("Evil")


def test_a_cross_site_post_is_refused(table: Table, attacker: Attacker) -> None:
    answer = _attack(table, attacker, "localhost")  # another site than 127.0.0.1
    assert answer.status == 403
    assert answer.request.header_value("sec-fetch-site") == "cross-site"
    assert "cross-site request refused" in answer.text()
    _no_evil_character(table)


def test_a_same_site_post_from_another_port_is_refused(table: Table, attacker: Attacker) -> None:
    answer = _attack(table, attacker, "127.0.0.1")  # same host, another port
    assert answer.request.header_value("sec-fetch-site") == "same-site"
    assert "rb_table_" in (answer.request.header_value("cookie") or "")  # SameSite let it in
    assert answer.status == 403
    assert "cross-site request refused" in answer.text()
    _no_evil_character(table)


def test_a_post_without_the_token_is_refused(table: Table) -> None:
    page = table.gm
    table_id = table.url.rstrip("/").rsplit("/", 1)[1]
    page.get_by_text("New character").click()
    page.get_by_label("Name", exact=True).fill("Tokenless")
    page.locator('form[action$="/characters"] input[name="csrf"]').evaluate("el => el.remove()")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Create a blank sheet").click()
    assert answer.value.status == 403
    assert answer.value.request.header_value("sec-fetch-site") == "same-origin"
    expect(page.locator("main")).to_contain_text("CSRF token")
    script = """async ([url, token]) => {
      const post = (headers) => fetch(url, {method: "POST", credentials: "same-origin",
        headers: {"content-type": "application/json", ...headers},
        body: JSON.stringify({name: "Fetched"})});
      return [(await post({})).status, (await post({"X-CSRF-Token": token})).status];
    }"""
    page.goto(table.url)
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    statuses = page.evaluate(script, [f"/api/tables/{table_id}/characters", token])
    assert statuses == [403, 201]


def _watch(page: Page, seen: list[str]) -> None:
    def dismissed(dialog: Dialog) -> None:
        seen.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", dismissed)
    page.on("pageerror", lambda error: seen.append(f"error: {error}"))
    page.on(
        "console",
        lambda msg: (
            seen.append(f"console: {msg.text}") if msg.type in ("error", "warning") else None
        ),
    )


def _only_our_script_and_no_injected_nodes(page: Page) -> None:
    assert page.evaluate("document.scripts.length") == 1
    assert page.locator("img[src='x'], main svg, main script").count() == 0


def test_hostile_names_render_as_text_and_run_nothing(table: Table) -> None:
    seen: list[str] = []
    _watch(table.gm, seen)
    player = table.join("player", HOSTILE_PLAYER)
    _watch(player, seen)
    new_character(player, HOSTILE_CHARACTER)
    roll(player)
    gm = table.gm  # its feed got the join, the new character and the roll live
    expect(gm.locator(".entry.kind-roll .meta .who")).to_have_text(HOSTILE_PLAYER)
    expect(gm.locator(".entry.kind-roll .meta .char")).to_have_text(HOSTILE_CHARACTER)
    expect(gm.locator("#characters .name")).to_have_text(HOSTILE_CHARACTER)
    for page in (gm, player):
        _only_our_script_and_no_injected_nodes(page)
    gm.reload()  # the same names, rendered by the server this time
    expect(gm.locator(".members .name").last).to_have_text(HOSTILE_PLAYER)
    expect(gm.locator(".entry.kind-roll .meta .char")).to_have_text(HOSTILE_CHARACTER)
    _only_our_script_and_no_injected_nodes(gm)
    assert seen == []


def test_a_hostile_table_name_is_text(table: Table) -> None:
    seen: list[str] = []
    page = table.new_page()
    _watch(page, seen)
    page.goto(table.server.url + "/")
    page.get_by_label("Table name").fill(HOSTILE_TABLE)
    page.get_by_label("Your name (game master)").fill(HOSTILE_PLAYER)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#feed-h")).to_have_text(HOSTILE_TABLE)
    wait_live(page)
    expect(page.locator(".you")).to_contain_text(HOSTILE_PLAYER)
    expect(page).to_have_title(f"{HOSTILE_TABLE} · rulebound")
    _only_our_script_and_no_injected_nodes(page)
    assert seen == []
