"""The dice half of ``rulebound verify``: seeds, client seeds, nonces, faces and replays.

Fed the entries in chain order (``DiceCheck.entry``), it follows the table's
dice state as the log tells it: ``seed`` entries reveal a seed and name the
next commitment, ``client-seed`` entries set the client seed. Each play with
committed dice must use the commitment and client seed in force at its place in
the log and a nonce never used before; under a revealed seed its draws are
recomputed with ``verify_draws``, and a roll chain is rebuilt with the
ruleset's ``card(chain)`` and compared with the card that was logged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import Draw
from rulebound.core.verifiable import commitment_for, verify_draws

if TYPE_CHECKING:
    from rulebound.rulesets.plays import TableRules
    from rulebound.trust.verify import Report

REPLAYED = ("roll", "follow-up")
COMPARED = ("outcome", "succeeded", "dice")


class DiceCheck:
    def __init__(
        self, doc: Mapping[str, Any], report: Report, *, allow_uncommitted: bool = False
    ) -> None:
        self.report = report
        self.allow_uncommitted = allow_uncommitted
        self.seeds: dict[str, str] = {}
        """Revealed seeds by commitment: from the export's list and from the chain."""
        self.revealed_at: dict[str, int] = {}
        self.commitment: str | None = None
        self.client_seed = ""
        self.client_seed_at: int | None = None
        self.nonces: dict[int, int] = {}
        self.bodies: dict[Any, Mapping[str, Any]] = {}
        self.rules = _rules(str(doc.get("ruleset")), report)
        for seed in doc.get("seeds") or ():
            if not isinstance(seed, Mapping):
                continue
            report.seeds += 1
            commitment, secret = seed.get("commitment"), seed.get("server_seed")
            if secret is None:
                continue
            report.revealed += 1
            if check_seed(commitment, secret):
                self.seeds[str(commitment)] = str(secret)
            else:
                report.add(
                    None, f"seed {str(commitment)[:16]}…: the revealed seed does not hash to it"
                )

    def entry(self, seq: int, item: Mapping[str, Any]) -> None:
        body = item.get("body")
        if not isinstance(body, Mapping):
            self._sealed(seq, item.get("dice"))
            return
        self.bodies[item.get("id")] = body
        found = body.get("record")
        record: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        if body.get("kind") == "seed":
            self._seed_entry(seq, record)
        elif body.get("kind") == "client-seed":
            self.client_seed, self.client_seed_at = str(record.get("client_seed")), seq
        dice = item.get("dice")
        draws = record.get("draws") or []
        if dice is None:
            if draws:
                self.report.uncommitted += 1
                if not self.allow_uncommitted:
                    self.report.add(seq, "its dice were not drawn from a committed seed")
            return
        if not self._dice_in_force(seq, dice):
            return
        self._faces(seq, dice, draws)
        if body.get("kind") in REPLAYED and self.rules is not None:
            self._replay(seq, body)

    def _sealed(self, seq: int, dice: Any) -> None:
        """A play whose body this export does not hold: its dice are public, its faces not."""
        if isinstance(dice, Mapping) and self._dice_in_force(seq, dice):
            self.report.pending += 1

    def _seed_entry(self, seq: int, record: Mapping[str, Any]) -> None:
        shown = record.get("revealed")
        if isinstance(shown, Mapping):
            commitment, secret = str(shown.get("commitment")), shown.get("server_seed")
            if not check_seed(commitment, secret):
                self.report.add(seq, "it reveals a seed that does not hash to its commitment")
            elif self.seeds.setdefault(commitment, str(secret)) != secret:
                self.report.add(seq, "it reveals another seed than the export's seed list")
            self.revealed_at.setdefault(commitment, seq)
        self.commitment = str(record.get("committed"))

    def _dice_in_force(self, seq: int, dice: Mapping[str, Any]) -> bool:
        commitment, client, nonce = (
            dice.get("commitment"),
            dice.get("client_seed"),
            dice.get("nonce"),
        )
        if not isinstance(nonce, int) or not isinstance(commitment, str):
            self.report.add(seq, "its dice name no commitment and nonce")
            return False
        self._nonce(seq, nonce)
        self.report.rolls += 1
        if commitment in self.revealed_at:
            at = self.revealed_at[commitment]
            self.report.add(seq, f"it rolled with a seed already revealed at entry {at}")
        elif self.commitment is not None and commitment != self.commitment:
            self.report.add(
                seq, f"it rolled with commitment {commitment[:16]}…, not the one in force"
            )
        self.commitment = commitment
        if client != self.client_seed:
            where = (
                "by default" if self.client_seed_at is None else f"at entry {self.client_seed_at}"
            )
            self.report.add(
                seq, f"it used client seed {client!r}, not {self.client_seed!r} set {where}"
            )
        return True

    def _nonce(self, seq: int, nonce: int) -> None:
        first = self.nonces.setdefault(nonce, seq)
        if first != seq:
            self.report.add(seq, f"nonce {nonce} was already used at entry {first}")

    def _faces(self, seq: int, dice: Mapping[str, Any], draws: Sequence[Any]) -> None:
        secret = self.seeds.get(str(dice["commitment"]))
        if secret is None:
            self.report.pending += 1
            return
        try:
            recorded = [Draw(int(sides), int(face)) for sides, face in draws]
            wrong = verify_draws(secret, str(dice["client_seed"]), int(dice["nonce"]), recorded)
        except (RuleboundError, TypeError, ValueError) as exc:
            self.report.add(seq, f"its draws cannot be checked: {exc}")
            return
        if wrong is not None:
            sides = recorded[wrong.index].sides
            self.report.add(
                seq,
                f"die {wrong.index + 1} (d{sides}) shows {wrong.recorded}, but the revealed"
                f" seed gives {wrong.expected}",
            )
            return
        self.report.dice += len(recorded)

    def _replay(self, seq: int, body: Mapping[str, Any]) -> None:
        chain = [body]
        while chain[0].get("parent_id") is not None:
            parent = self.bodies.get(chain[0]["parent_id"])
            if parent is None:
                return  # a link the exporting member may not see: nothing to replay
            chain.insert(0, parent)
        if chain[0].get("kind") != "roll" or not isinstance(body.get("card"), Mapping):
            return
        assert self.rules is not None
        try:
            card = to_jsonable(self.rules.card([dict(b["record"]) for b in chain]))
        except RuleboundError as exc:
            self.report.add(seq, f"its record does not replay: {exc}")
            return
        for key in COMPARED:
            if card.get(key) != body["card"].get(key):
                self.report.add(seq, f"replaying its record gives a different {key} than it logged")
                return
        self.report.cards += 1


def check_seed(commitment: Any, server_seed: Any) -> bool:
    """True when ``server_seed`` is a well-formed seed whose SHA-256 is ``commitment``."""
    try:
        return isinstance(server_seed, str) and commitment_for(server_seed) == commitment
    except RuleboundError:
        return False


def _rules(ruleset: str, report: Report) -> TableRules[Any, Any] | None:
    from rulebound.core.errors import UnknownRuleset
    from rulebound.rulesets.plays import TableRules
    from rulebound.rulesets.registry import get_game

    try:
        return TableRules(get_game(ruleset))
    except UnknownRuleset:
        report.notes.append(f"cards: not replayed (ruleset {ruleset!r} is not installed)")
        return None
