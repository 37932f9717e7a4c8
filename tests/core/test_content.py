"""Content loading: TOML parsed, validated by pydantic, errors turned into ContentError."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulebound.core.errors import ContentError, RuleboundError
from rulebound.rulesets.content import (
    describe_validation_error,
    load_file,
    load_packaged,
    parse_content,
)


class Race(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    speed: int = Field(ge=0)
    traits: tuple[str, ...] = ()


class RaceBook(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int
    races: list[Race]

    @model_validator(mode="after")
    def names_unique(self) -> "RaceBook":
        names = [race.name for race in self.races]
        if len(names) != len(set(names)):
            raise ValueError("race names must be unique")
        return self


VALID = """
version = 1

[[races]]
name = "Human"
speed = 30

[[races]]
name = "Dwarf"
speed = 25
traits = ["stout", "darkvision"]
"""


def write(tmp_path: Path, text: str, name: str = "races.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_toml_loads_into_the_model(tmp_path: Path) -> None:
    book = load_file(write(tmp_path, VALID), RaceBook)
    assert isinstance(book, RaceBook)
    assert book.version == 1
    assert [r.name for r in book.races] == ["Human", "Dwarf"]
    assert book.races[1] == Race(name="Dwarf", speed=25, traits=("stout", "darkvision"))


def test_parse_content_without_a_file() -> None:
    assert parse_content("inline", 'name = "Elf"\nspeed = 35', Race).speed == 35


def test_non_ascii_utf8_content_round_trips(tmp_path: Path) -> None:
    book = load_file(write(tmp_path, VALID.replace("Dwarf", "Nain ‑ Élan")), RaceBook)
    assert book.races[1].name == "Nain ‑ Élan"


def test_invalid_toml_names_the_source(tmp_path: Path) -> None:
    path = write(tmp_path, 'version = 1\n[[races]\nname = "Human"\n')
    with pytest.raises(ContentError) as info:
        load_file(path, RaceBook)
    assert info.value.source == str(path)
    assert str(path) in str(info.value)
    assert "not valid TOML" in info.value.detail
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__


def test_schema_violation_names_dotted_path_value_and_expectation(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("speed = 25", 'speed = "fast"'))
    with pytest.raises(ContentError) as info:
        load_file(path, RaceBook)
    detail = info.value.detail
    assert detail.startswith("races.1.speed: got 'fast'; ")
    assert "integer" in detail
    assert str(path) in str(info.value)


def test_constraint_violation_reports_the_value(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("speed = 30", "speed = -5"))
    with pytest.raises(ContentError) as info:
        load_file(path, RaceBook)
    assert "races.0.speed: got -5; " in info.value.detail
    assert "greater than or equal to 0" in info.value.detail


def test_every_problem_gets_its_own_entry(tmp_path: Path) -> None:
    text = 'version = "one"\n[[races]]\nspeed = 3\nwings = true\n'
    with pytest.raises(ContentError) as info:
        load_file(write(tmp_path, text), RaceBook)
    detail = info.value.detail
    assert "version: got 'one'" in detail
    assert "races.0.name: got {'speed': 3, 'wings': True}" in detail
    assert "Field required" in detail
    assert "races.0.wings: got True" in detail
    assert "Extra inputs are not permitted" in detail
    assert detail.count(": got ") == 3


def test_top_level_problem_is_labelled(tmp_path: Path) -> None:
    text = 'version = 1\n[[races]]\nname = "A"\nspeed = 1\n[[races]]\nname = "A"\nspeed = 2\n'
    with pytest.raises(ContentError) as info:
        load_file(write(tmp_path, text), RaceBook)
    assert info.value.detail.startswith("(top level): got ")
    assert "race names must be unique" in info.value.detail


def test_describe_validation_error_directly() -> None:
    with pytest.raises(ValidationError) as info:
        Race.model_validate({"name": ["x"], "speed": 1})
    assert describe_validation_error(info.value).startswith("name: got ['x']; ")


def test_missing_file_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ContentError) as info:
        load_file(path, RaceBook)
    assert info.value.source == str(path)
    assert "cannot read" in info.value.detail
    assert isinstance(info.value, RuleboundError)


def test_directory_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        load_file(tmp_path, RaceBook)


def test_non_utf8_file_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "Café"\nspeed = 30\n'.encode("latin-1"))
    with pytest.raises(ContentError):
        load_file(path, Race)


@pytest.fixture
def data_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    name = "rb_core_test_content_pkg"
    package = tmp_path / name
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "data" / "races.toml").write_text(VALID, encoding="utf-8")
    (package / "data" / "bad.toml").write_text("version = [", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_load_packaged_reads_the_data_folder(data_package: str) -> None:
    book = load_packaged(data_package, "races.toml", RaceBook)
    assert [r.speed for r in book.races] == [30, 25]


def test_load_packaged_errors_name_package_and_file(data_package: str) -> None:
    with pytest.raises(ContentError) as info:
        load_packaged(data_package, "bad.toml", RaceBook)
    assert info.value.source == f"{data_package}/data/bad.toml"
    assert "not valid TOML" in info.value.detail
