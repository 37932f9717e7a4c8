"""Fields as Discord forms (modals): one text input per field, five at most.

A form of more fields gets four of them and a fifth input of several lines for the rest,
one ``name = value`` a line, filled with their values. What a form sends back is text;
the rules read it as they read a web form (``forms.read`` takes "5", "yes", "a, b").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.wording import counted
from rulebound.discord import embeds
from rulebound.discord.common import MODAL, PARAGRAPH, SHORT, TEXT_INPUT, Answer, submitted
from rulebound.discord.signature import number

MAX_INPUTS = 5
"""Discord's cap on a modal's inputs: a form that takes more shares the last one."""
REST = "rb-rest"
"""The custom id of the input of several lines that holds the inputs past the fifth."""
MAX_VALUE = 4000
"""Discord's cap on a text input's value."""


def split_inputs(
    fields: Sequence[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The fields that get an input each, and the rest (past Discord's five inputs a form):
    those share the last input, one ``name = value`` a line."""
    if len(fields) <= MAX_INPUTS:
        return list(fields), []
    return list(fields[: MAX_INPUTS - 1]), list(fields[MAX_INPUTS - 1 :])


def shown(value: Any) -> str:
    """A value as a form shows it: a list comma-separated, yes or no, blank for none."""
    if value in (None, "", [], ()):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def _default(field: Mapping[str, Any]) -> str:
    return "" if field.get("kind") == "dice" else shown(field.get("default"))


def hint(field: Mapping[str, Any]) -> str:
    """What a text input takes, as its placeholder: the choices, yes/no, the bounds."""
    kind = field.get("kind")
    values = [str(c.get("value")) for c in field.get("choices") or () if c.get("value")]
    if kind == "bool":
        return "yes or no"
    if kind == "dice":
        return "die numbers, e.g. 1,3"
    if values:
        many = "several, comma-separated: " if kind == "multiselect" else ""
        return (many + ", ".join(values))[:100]
    low, high = field.get("minimum"), field.get("maximum")
    if kind == "int":
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        if low is not None or high is not None:
            bound, word = (low, "least") if high is None else (high, "most")
            return f"a whole number of at {word} {bound}"
        return "a whole number"
    return str(field.get("help") or "")[:100]


def text_input(field: Mapping[str, Any], value: str, *, label: str = "") -> dict[str, Any]:
    words = label or str(field.get("label") or field.get("name"))
    made: dict[str, Any] = {
        "type": TEXT_INPUT,
        "custom_id": str(field.get("name"))[:100],
        "label": _clip(words, embeds.MAX_TITLE),
        "style": PARAGRAPH if field.get("multiline") else SHORT,
        "required": bool(field.get("required")),
        "max_length": MAX_VALUE if field.get("multiline") else 200,
    }
    if hint(field):
        made["placeholder"] = _clip(hint(field), 100)
    if value:
        made["value"] = value[: made["max_length"]]
    return made


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def form(
    custom_id: str,
    title: str,
    fields: Sequence[Mapping[str, Any]],
    values: Mapping[str, str] | None = None,
) -> Answer:
    """A modal of ``fields`` (``to_jsonable(Field)``), each filled with its value in
    ``values`` (else its default)."""
    given = dict(values or {})
    own, rest = split_inputs(fields)
    rows = []
    for field in own:
        value = given.get(str(field.get("name")), _default(field))
        label = str(field.get("label") or field.get("name"))
        if field.get("kind") == "dice":
            label += " (die numbers, e.g. 1,3)"
        rows.append({"type": embeds.ROW, "components": [text_input(field, value, label=label)]})
    if rest:
        lines = [
            f"{f.get('name')} = {given.get(str(f.get('name')), _default(f))}"
            f"  # {f.get('label') or f.get('name')}"
            for f in rest
        ]
        words = f"The other {counted(len(rest), 'input')}: one name = value a line"
        shared = {
            "type": TEXT_INPUT,
            "custom_id": REST,
            "label": words[: embeds.MAX_TITLE],
            "style": PARAGRAPH,
            "required": False,
            "max_length": MAX_VALUE,
            "value": "\n".join(lines)[:MAX_VALUE],
        }
        rows.append({"type": embeds.ROW, "components": [shared]})
    return {
        "type": MODAL,
        "data": {"custom_id": custom_id[:100], "title": title, "components": rows},
    }


def modal(
    entry_id: int, action: str, label: str, spends: str, fields: list[Mapping[str, Any]]
) -> Answer:
    """A follow-up's inputs as a form: submitting it is the confirmation, and its title says
    what the follow-up spends. Dice are asked for by their numbers (#1, #2...)."""
    return form(f"rb:m:{entry_id}:{action}", modal_title(label, spends), fields)


def modal_title(label: str, spends: str) -> str:
    """A form's title within Discord's 45 characters, its cost whole: "Burn a fate point
    (1 fate point and 10 LCK)"; when even that is too long, the cost first."""
    if not spends:
        return label[: embeds.MAX_TITLE]
    for title in (f"{label}: spends {spends}", f"{label} ({spends})"):
        if len(title) <= embeds.MAX_TITLE:
            return title
    title = f"Spends {spends}: {label}"
    return title if len(title) <= embeds.MAX_TITLE else title[: embeds.MAX_TITLE - 1] + "…"


def _rest_lines(rest: list[Mapping[str, Any]], text: str) -> dict[str, str]:
    """The shared input's ``name = value`` lines (a ``#`` starts a comment), by name."""
    names = [str(f.get("name")) for f in rest]
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, equals, value = line.partition("=")
        if not equals or name.strip() not in names:
            expected = "lines of name = value, the names among " + ", ".join(names)
            raise InvalidInput("the other inputs", line, expected)
        values[name.strip()] = value.strip()
    return values


def sent_values(fields: Sequence[Mapping[str, Any]], data: Mapping[str, Any]) -> dict[str, str]:
    """A submitted form's text by field name (the shared input's lines read too)."""
    sent = submitted(data)
    own, rest = split_inputs(fields)
    names = {str(f.get("name")) for f in own}
    found = {k: v for k, v in sent.items() if k in names}
    if rest:
        found |= _rest_lines(rest, sent.get(REST, ""))
    return found


def modal_params(fields: list[Mapping[str, Any]], data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted follow-up form's values as its params (dice numbers made indices)."""
    sent = sent_values(fields, data)
    params: dict[str, Any] = {}
    for field in fields:
        name = str(field.get("name"))
        value = sent.get(name, "").strip()
        if not value:
            continue
        if field.get("kind") == "dice":
            numbers = [part.strip() for part in value.split(",") if part.strip()]
            params[name] = [int(n) - 1 if number(n) else n for n in numbers]
        elif field.get("kind") == "multiselect":
            params[name] = [part.strip() for part in value.split(",") if part.strip()]
        else:
            params[name] = value
    return params
