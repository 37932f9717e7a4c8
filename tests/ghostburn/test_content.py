"""Built-in content loads; a GM's homebrew file merges over it through the same checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebound.core.errors import ContentError
from rulebound.rulesets.ghostburn.content import GhostburnContent, TrickKind, load_content


def test_builtin_content_has_the_known_levels_and_the_default_chart(
    content: GhostburnContent,
) -> None:
    known = {level.name: level.value for level in content.levels if level.known}
    assert known == {"Moderate": 14, "Hard": 20}
    assert [band.key for band in content.chart("default").bands] == ["success", "fade", "failure"]


def test_every_skill_has_core_tricks(content: GhostburnContent) -> None:
    for skill in content.skills:
        assert any(t.kind is TrickKind.CORE for t in content.tricks_for(skill)), skill


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "homebrew.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_homebrew_adds_a_trick_and_replaces_the_ladder(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """
[[levels]]
name = "Moderate"
value = 14
[[levels]]
name = "Hard"
value = 20
[[levels]]
name = "Mythic"
value = 40

[[tricks]]
key = "hotwire"
name = "Hotwire"
skill = "drive"
dl = "Mythic"
""",
    )
    merged = load_content([path])
    assert merged.ladder.describe() == "Moderate (14), Hard (20), Mythic (40)"
    assert merged.trick("hotwire").dl == "Mythic"
    assert "aimed-shot" in merged.tricks


def test_a_homebrew_ladder_must_keep_the_levels_tricks_name(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[levels]]\nname = "Low"\nvalue = 10\n')
    with pytest.raises(ContentError, match=f"tricks.aimed-shot.dl.*ladder from {path}"):
        load_content([path])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[tricks]]\nkey = "x"\nname = "X"\nskill = "cooking"\ndl = 14\n', "tricks.x.skill"),
        ('[[tricks]]\nkey = "x"\nname = "X"\nskill = "drive"\n', "exactly one of dl"),
        ('[[tricks]]\nkey = "x"\nname = "X"\nskill = "drive"\ndl = "Epic"\n', "tricks.x.dl"),
        ('[[tricks]]\nkey = "X Y"\nname = "X"\nskill = "drive"\ndl = 9\n', "tricks.0.key"),
        ('[[skills]]\nkey = "hack"\nname = "Hack"\nability = "wits"\n', "skills.hack.ability"),
        (
            '[[charts]]\nkey = "c"\nname = "C"\nbands = [{key = "a", label = "A", outcome = ""},'
            ' {key = "b", label = "B", outcome = ""}]\n',
            "exactly one floor band",
        ),
        ("levels = 3\n", "levels"),
        ("not toml [", "not valid TOML"),
    ],
)
def test_bad_homebrew_names_the_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ContentError, match=message) as err:
        load_content([path])
    assert err.value.source == str(path)
