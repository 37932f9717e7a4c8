"""Basic checks: the request, how its target is built, the roll, and the frozen result.

Follow-ups (declining a partial success, a fate reroll, a luck swap) are new
results whose ``parent`` is the result they follow; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.core.random_source import RandomSource, RecordingSource, trusted_builder
from rulebound.core.trace import DieRecord, DieState, Modifier, Provenance
from rulebound.rulesets.content import input_error
from rulebound.rulesets.legacy.content import Catalogue, catalogue
from rulebound.rulesets.legacy.content import Difficulty as ContentDifficulty
from rulebound.rulesets.legacy.rules import (
    DEFAULT_AFFINITY_BONUS,
    DEFAULT_SCALE,
    FATIGUE_PENALTY,
    Edge,
    Outcome,
    Thresholds,
    affinity_bonus_mode,
    characteristic_bonus,
    classify,
    degrees,
    harder,
    margin,
    net_edge,
    rank_bonus,
    rank_modifier,
    scale,
)

MAX_SCORE = 200
_SHARED_SIDES = 1000
_die = trusted_builder(DieRecord)
MAX_PENALTY = 20
AssistMode = Literal["advantage", "proficiency"]
ASSIST_MODES: tuple[str, ...] = ("advantage", "proficiency")


@dataclass(frozen=True, slots=True)
class Assist:
    """Who assisted a check and how; the helper never rolls (see ``assist``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    helper: str
    mode: AssistMode
    relevant: str
    rank: int | None = None

    def __post_init__(self) -> None:
        if self.mode not in ASSIST_MODES:
            raise InvalidInput("assist.mode", self.mode, "one of " + ", ".join(ASSIST_MODES))
        if self.mode == "proficiency" and self.rank is None:
            raise InvalidInput("assist.rank", self.rank, "the helper's rank (1 to 6)")


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """Everything that shapes one check. ``target`` (if given) is the final number to roll under.

    It is also the request's JSON model: ``request_from_json`` validates it with pydantic
    (every field typed, unknown keys refused) and then runs the checks below.
    """

    __pydantic_config__ = ConfigDict(extra="forbid")

    score: int = 0
    bonus: int | None = None
    characteristic: str = ""
    rank: int | None = None
    difficulty: str = "challenging"
    skill: bool = False
    has_skill_affinity: bool = True
    fatigued: bool = False
    advantage: bool = False
    disadvantage: bool = False
    modifier: int = 0
    scale: str = DEFAULT_SCALE
    target: int | None = None
    label: str = ""
    untrained_penalty: int = 0
    affinity_bonus: str = DEFAULT_AFFINITY_BONUS
    assists: tuple[Assist, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.score <= MAX_SCORE:
            raise InvalidInput("score", self.score, f"a characteristic from 0 to {MAX_SCORE}")
        if self.bonus is not None and not 0 <= self.bonus <= MAX_SCORE // 10:
            raise InvalidInput("bonus", self.bonus, f"a bonus from 0 to {MAX_SCORE // 10}")
        if self.target is not None and not -MAX_SCORE <= self.target <= MAX_SCORE:
            raise InvalidInput("target", self.target, f"a target from {-MAX_SCORE} to {MAX_SCORE}")
        DEFAULT_LIMITS.check_modifier("modifier", self.modifier)
        if not -MAX_PENALTY <= self.untrained_penalty <= 0:
            raise InvalidInput(
                "untrained_penalty",
                self.untrained_penalty,
                f"a penalty from -{MAX_PENALTY} to 0 (the item's entry gives it)",
            )
        canonical = {  # any spelling in, the key kept ("Very Hard" is very-hard)
            "affinity_bonus": affinity_bonus_mode(self.affinity_bonus),
            "scale": scale(self.scale).key,
            "difficulty": catalogue().difficulty(self.difficulty).key,
        }
        for name, key in canonical.items():
            object.__setattr__(self, name, key)
        if self.rank is not None:
            rank_bonus(self.rank)

    @property
    def ability_bonus(self) -> int:
        return characteristic_bonus(self.score) if self.bonus is None else self.bonus


_TABLES: dict[int, tuple[object, Mapping[str, ContentDifficulty]]] = {}


def difficulty_table(cat: Catalogue | None = None) -> Mapping[str, ContentDifficulty]:
    """The catalogue's difficulty classes by key, built once per catalogue (its models
    are frozen); ``Catalogue.difficulty`` still matches any other spelling."""
    cat = cat or catalogue()
    hit = _TABLES.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    table = MappingProxyType({d.key: d for d in cat.tables.difficulty})
    if len(_TABLES) >= 16:
        _TABLES.clear()
    _TABLES[id(cat)] = (cat, table)
    return table


@dataclass(frozen=True, slots=True)
class Resolved:
    """A request turned into numbers: thresholds, net edge, and each modifier with its source."""

    thresholds: Thresholds
    edge: Edge
    modifiers: tuple[Modifier, ...]
    difficulty: str


_thresholds = trusted_builder(Thresholds)
_resolved = trusted_builder(Resolved)
_modifier = trusted_builder(Modifier)


def resolve(req: CheckRequest) -> Resolved:
    """The request's numbers: thresholds, edge, and each modifier with its source."""
    sc = scale(req.scale)
    bonus = req.ability_bonus
    if req.target is not None:  # a critical success is a success: never above the target
        edge = net_edge(req.advantage, req.disadvantage)
        t = _made_thresholds(req.target, min(bonus, req.target), bonus, sc.die)
        return _resolved(t, edge, (), req.difficulty)
    key = req.difficulty
    mods: list[Modifier] = []
    if req.skill and not req.has_skill_affinity:
        key = harder(key)
    diff = difficulty_table().get(key) or catalogue().difficulty(key)
    f = sc.modifier_factor
    if req.rank is not None:
        value = rank_modifier(req.rank, req.affinity_bonus, sc)
        mods.append(_modifier(_rank_label(req), value, "rank"))
    if req.untrained_penalty:
        mods.append(_modifier("untrained (item's penalty)", req.untrained_penalty * f, "untrained"))
    label = diff.name + (" (no skill affinity: one class harder)" if key != req.difficulty else "")
    mods.append(_modifier(f"difficulty: {label}", diff.modifier * f, "difficulty"))
    if req.fatigued:
        mods.append(_modifier("fatigued", FATIGUE_PENALTY * f, "fatigue"))
    if req.modifier:
        mods.append(_modifier("situational", req.modifier, "situational"))
    total = sum(m.value for m in mods)
    base = req.score // 2 if sc.halve_score else req.score
    edge = net_edge(
        req.advantage or diff.edge == "advantage", req.disadvantage or diff.edge == "disadvantage"
    )
    crit = min(bonus, base) + total  # never above the target (a bonus given past the score)
    return _resolved(_made_thresholds(base + total, crit, bonus, sc.die), edge, tuple(mods), key)


def _made_thresholds(target: int, crit: int, bonus: int, die: int) -> Thresholds:
    """``Thresholds``, built at once when its checks plainly pass (a scale's die, a bonus
    of 0 or more), else through the class and its errors."""
    if type(die) is int and die >= 2 and type(bonus) is int and bonus >= 0:
        return _thresholds(target, crit, bonus, die)
    return Thresholds(target, crit, bonus, die)


def _rank_label(req: CheckRequest) -> str:
    lent = [a for a in req.assists if a.mode == "proficiency" and a.rank == req.rank]
    helper = f", lent by {lent[0].helper}" if lent else ""
    return f"rank bonus (rank {req.rank}{helper})"


T = TypeVar("T")


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def from_json(model: type[T], data: Any, root: str) -> T:
    """``model`` (a dataclass with ``__pydantic_config__``) from JSON; errors name each field."""
    if not isinstance(data, Mapping):
        raise InvalidInput(root, data, "a JSON object")
    adapter: TypeAdapter[T] = _ADAPTERS.get(model) or _ADAPTERS.setdefault(
        model, TypeAdapter(model)
    )
    try:
        return adapter.validate_python(dict(data))
    except ValidationError as exc:
        raise input_error(exc, root=root) from None


def request_from_json(data: Mapping[str, Any]) -> CheckRequest:
    """Rebuild a request from its JSON form (as ``to_jsonable`` writes it)."""
    return from_json(CheckRequest, data, "request")


@dataclass(frozen=True, slots=True)
class LegacyResult:
    """One check, complete: what was asked, the dice, the outcome, and the draws to replay it."""

    request: CheckRequest
    thresholds: Thresholds
    edge: Edge
    modifiers: tuple[Modifier, ...]
    dice: tuple[DieRecord, ...]
    face: int
    outcome: Outcome
    margin: int
    degrees: int
    provenance: Provenance
    parent: LegacyResult | None = field(default=None, repr=False)
    note: str = ""

    @property
    def succeeded(self) -> bool:
        return self.outcome.passed

    @property
    def headline(self) -> str:
        return self.outcome.value.capitalize()


def _kept_index(faces: Sequence[int], edge: Edge) -> int:
    if edge is Edge.ADVANTAGE:
        return faces.index(min(faces))
    if edge is Edge.DISADVANTAGE:
        return faces.index(max(faces))
    return 0


_result = trusted_builder(LegacyResult)
_DICE: dict[tuple[int, int, int], tuple[DieRecord, ...]] = {}


def _dice_of(die: int, count: int, index: int) -> tuple[DieRecord, ...]:
    """The ``index``-th of ``count`` dice of ``die`` sides, by face (index 0 unused), as
    kept (even index of the pair's view: ``[face * 2]``) and dropped: shared immutable
    records, made once per die size instead of on every roll."""
    key = (die, count, index)
    hit = _DICE.get(key)
    if hit is None:
        label, rows = f"d{die} #{index + 1}", []
        for face in range(die + 1):
            for kept in (True, False):
                state = DieState.KEPT if count > 1 and kept else DieState.ROLLED
                marks = () if count == 1 else ("kept",) if kept else ("dropped",)
                rows.append(_die(label, die, face, "check", state, (), marks))
        hit = _DICE.setdefault(key, tuple(rows))
    return hit


def roll_check(
    req: CheckRequest, source: RandomSource, *, parent: LegacyResult | None = None, note: str = ""
) -> LegacyResult:
    """Roll the check (``parent``: the result a reroll of it replaces)."""
    res, rec = resolve(req), RecordingSource(source)
    thresholds, edge = res.thresholds, res.edge
    die = thresholds.die
    count = 1 if edge is Edge.NONE else 2
    faces = rec.draw_many(die, count)
    kept = 0 if count == 1 else _kept_index(faces, edge)
    if die <= _SHARED_SIDES:  # faces were checked by the recorder: 1 to ``die``
        dice = tuple(
            _dice_of(die, count, i)[2 * face + (i != kept)] for i, face in enumerate(faces)
        )
    else:
        dice = tuple(
            _die(
                f"d{die} #{i + 1}",
                die,
                face,
                "check",
                DieState.KEPT if count > 1 and i == kept else DieState.ROLLED,
                (),
                () if count == 1 else ("kept",) if i == kept else ("dropped",),
            )
            for i, face in enumerate(faces)
        )
    face = faces[kept]
    outcome = classify(face, thresholds)
    m = margin(face, thresholds, outcome)
    return _result(
        req,
        thresholds,
        edge,
        res.modifiers,
        dice,
        face,
        outcome,
        m,
        degrees(m, scale(req.scale)),
        Provenance.of_source(source, rec.draws),
        parent,
        note,
    )


def reroll(result: LegacyResult, source: RandomSource, note: str = "reroll") -> LegacyResult:
    """Roll the same check again as a new result linked to the old one."""
    return roll_check(result.request, source, parent=result, note=note)


def follow_up(result: LegacyResult, outcome: Outcome, note: str) -> LegacyResult:
    """The same roll judged again (declined, or a critical failure cancelled): no new dice."""
    m = margin(result.face, result.thresholds, outcome)
    return replace(
        result,
        outcome=outcome,
        margin=m,
        degrees=degrees(m, scale(result.request.scale)),
        provenance=Provenance(result.provenance.source, ()),
        parent=result,
        note=note,
    )


def decline_partial(result: LegacyResult) -> LegacyResult:
    """Refuse a partial success: a new result, counted as a plain failure."""
    if result.outcome is not Outcome.PARTIAL:
        raise InvalidInput("outcome", result.outcome.value, "a partial success to decline")
    return follow_up(result, Outcome.FAILURE, "partial success declined")


def automatic_failure(req: CheckRequest, reason: str) -> LegacyResult:
    """A check failed without a roll (an unconscious character): no dice, face 0, margin 0."""
    res = resolve(req)
    return LegacyResult(
        request=req,
        thresholds=res.thresholds,
        edge=res.edge,
        modifiers=res.modifiers,
        dice=(),
        face=0,
        outcome=Outcome.FAILURE,
        margin=0,
        degrees=0,
        provenance=Provenance((), ()),
        note=reason,
    )


def luck_request(lck: int, scale_key: str = DEFAULT_SCALE, label: str = "LCK test") -> CheckRequest:
    """An unmodified test against LCK: no rank, no difficulty, no fatigue, no edge."""
    return CheckRequest(score=lck, characteristic="LCK", scale=scale_key, label=label)
