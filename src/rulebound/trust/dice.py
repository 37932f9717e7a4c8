"""The dice half of ``rulebound verify``: seeds, contributions, nonces, faces and replays.

Fed the entries in chain order, it follows the table's dice state as the log tells it:
the first entry names the ruleset, the variants and the first commitment; ``seed``
entries reveal a seed and name the next commitment. Each play with committed dice must
use the commitment in force at its place in the log, never one already revealed, and:

- a per-roll contribution (``chain.DICE_FIELDS``) that no other entry used; its faces are
  ``VerifiableSource(seed, contribution, 0)``; a whisper's dice name the contribution's
  SHA-256 (``chain.BLINDED_DICE_FIELDS``) and its record the contribution, which must
  hash to it;
- or, for plays logged before per-roll contributions (``chain.OLD_DICE_FIELDS``), the
  client seed last set and the table's next nonce: nonces follow one another in log
  order, so a forger cannot give a roll an unused nonce whose faces suit them.

Under a revealed seed every face is recomputed, every chain of plays (a roll, a sheet
action or a game master's tool, and their follow-ups) is rebuilt with the ruleset's own
``card(chain)`` (``TableRules.card``: a roll's ``Game.card``, an action's ``Game.tool_card``)
and compared with the card that was logged, and no entry may be kept from the export
(revealing a seed discloses every play made under it). An action the ruleset says it cannot
rebuild (``Game.unreplayed_actions``: it rolls nothing) is left unreplayed and counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import Draw
from rulebound.core.verifiable import (
    CONTRIBUTION_PATTERN,
    DIGEST_PATTERN,
    commitment_for,
    verify_draws,
)
from rulebound.trust.chain import (
    BLINDED_DICE_FIELDS,
    DICE_FIELDS,
    OLD_DICE_FIELDS,
    contribution_digest,
)
from rulebound.trust.export import OLD_FORMAT

if TYPE_CHECKING:
    from rulebound.rulesets.plays import TableRules
    from rulebound.trust.verify import Report

ROLL = "roll"
ACTIONS = ("sheet-action", "table-action")
"""An action on a sheet and a game master's tool: the only entries a game may say it does
not rebuild (``Game.unreplayed_actions``)."""
STARTS = (ROLL, *ACTIONS)
"""The plays that start a chain: a roll, an action on a sheet, a game master's tool."""
REPLAYED = (*STARTS, "follow-up")
TURN = "turn"
"""The turn tracker's moves: a start or an add that rolled is rolled again (``turns.replay``)."""
FREE_ROLL = "free-roll"
"""Rolls of typed dice ("/r 4d6kh3", inline [[1d20+3]]): rebuilt from their own record."""
PLAYS = (*REPLAYED, FREE_ROLL, TURN)
"""The only entries that draw dice, each rebuilt as its kind says: one of another kind with
dice would be a play relabelled so that nothing replays it."""
COMPARED = ("outcome", "succeeded", "dice")
"""What a card from before cards named their outcome's key is compared by."""
MEANT = ("outcome_key", "succeeded", "dice")
"""What a card in the games' earlier words is compared by (``Card.wording``)."""
FIRST_WORDING = 1
"""The words of a card stored with no ``wording``."""
CONTRIBUTION = re.compile(CONTRIBUTION_PATTERN)
HASH = re.compile(DIGEST_PATTERN)
BLINDED = "contribution_sha256"
"""A whisper's dice name its contribution by this hash; its record, the contribution."""
MAX_CHAIN = 1000
"""Follow-ups in one chain that verify replays (no game comes near it)."""
BROKEN = (RuleboundError, TypeError, ValueError, KeyError, AttributeError, IndexError)
"""What a crafted record can make a game's replay raise."""


class DiceCheck:
    def __init__(
        self, doc: Mapping[str, Any], report: Report, *, allow_uncommitted: bool = False
    ) -> None:
        self.report = report
        self.allow_uncommitted = allow_uncommitted
        self.old_format = doc.get("format") == OLD_FORMAT
        self.ruleset, self.variants = doc.get("ruleset"), doc.get("variants")
        self.seeds: dict[str, str] = {}
        """Revealed seeds by commitment: from the export's list and from the chain."""
        self.revealed_at: dict[str, int] = {}
        self.commitment: str | None = None
        self.client_seed = ""
        self.client_seed_at: int | None = None
        self.nonce, self.nonce_at, self.gap = 0, 0, False
        self.nonces: dict[int, int] = {}
        self.contributions: dict[str, int] = {}
        self.per_roll_at: int | None = None
        self.kept: list[tuple[int, str]] = []
        """Plays this export does not show whole: (seq, commitment)."""
        self.bodies: dict[int, Mapping[str, Any]] = {}
        self.ids: dict[int, int] = {}
        """The seq of each entry the export shows (whole or sealed), by its id."""
        self.followed: dict[int, int] = {}
        """The seq of the follow-up of each entry followed up, by the entry's id."""
        self.worded = False
        """A replayed card named its outcome's key: every later one must (the same words)."""
        self.wording = FIRST_WORDING
        """The words of the last replayed card: no later one is in older words."""
        self.rules_named = 1
        """The rules the last replayed roll named (``Game.rules_named``): none later names older."""
        self.recommit: tuple[int, Any] | None = None
        """The last re-commit of the dice: its seq and who made it."""
        self.rules = _rules(self.ruleset, report)
        seeds = doc.get("seeds")
        for seed in seeds if isinstance(seeds, list) else ():
            if isinstance(seed, Mapping):
                self._listed(seed)

    def _listed(self, seed: Mapping[str, Any]) -> None:
        self.report.seeds += 1
        commitment, secret = seed.get("commitment"), seed.get("server_seed")
        if secret is None:
            return
        self.report.revealed += 1
        if check_seed(commitment, secret):
            self.seeds[str(commitment)] = str(secret)
        else:
            self.report.add(
                None, f"seed {str(commitment)[:16]}…: the revealed seed does not hash to it"
            )

    # entries, in chain order

    def entry(self, seq: int, item: Mapping[str, Any]) -> None:
        self._identify(seq, item)
        body = item.get("body")
        if not isinstance(body, Mapping):
            self.hidden(seq, item.get("dice"), withheld=False)
            return
        found = body.get("record")
        record: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        if seq == 1:
            self._table(record)
        self._parent(seq, body)
        if body.get("kind") == "seed":
            self._seed_entry(seq, record)
            self.recommit = seq, body.get("actor_id")
        elif body.get("kind") == "client-seed":
            self.client_seed, self.client_seed_at = str(record.get("client_seed")), seq
        self._play(seq, item, body, record)
        entry_id = item.get("id")
        if isinstance(entry_id, int):
            self.bodies.setdefault(entry_id, body)

    def _play(
        self, seq: int, item: Mapping[str, Any], body: Mapping[str, Any], record: Mapping[str, Any]
    ) -> None:
        if body.get("kind") == FREE_ROLL:
            self._free_roll(seq, body)
        elif body.get("kind") == TURN and self.rules is not None:
            self._turn(seq, record)
        replays = body.get("kind") in REPLAYED and self.rules is not None
        if self._dice(seq, item, body, record) and replays:
            self._replay(seq, item.get("id"), body)

    def _dice(
        self, seq: int, item: Mapping[str, Any], body: Mapping[str, Any], record: Mapping[str, Any]
    ) -> bool:
        """Checks a play's dice; whether its card is then to be rebuilt: after its faces are,
        or with no dice and no draws (no face to check, but its card all the same)."""
        dice, draws = item.get("dice"), record.get("draws") or []
        if dice is None:
            if draws:
                self.report.uncommitted += 1
                if not self.allow_uncommitted:
                    self.report.add(seq, "its dice were not drawn from a committed seed")
            return not draws
        if body.get("kind") not in PLAYS:
            kind = str(body.get("kind"))[:40]
            self.report.add(seq, f"it holds dice, but a {kind} entry is no play (relabelled?)")
        if not self._dice_in_force(seq, dice):
            return False
        self._recommitted_before(seq, body)
        self._faces(seq, dice, draws, record)
        return True

    def _identify(self, seq: int, item: Mapping[str, Any]) -> None:
        """An entry's id is not hashed: it must be its own, and come after the ids before it
        (the store gives them in the order it writes), or a follow-up could be pinned on
        another entry than its own."""
        entry_id = item.get("id")
        if entry_id is None:
            return
        if not isinstance(entry_id, int) or isinstance(entry_id, bool):
            self.report.add(seq, "its id must be a whole number")
            return
        last = max(self.ids, default=0)
        if entry_id in self.ids or entry_id <= last:
            self.report.add(
                seq, f"its id {entry_id} does not come after entry {self.ids.get(last)}'s id {last}"
            )
            return
        self.ids[entry_id] = seq

    def _parent(self, seq: int, body: Mapping[str, Any]) -> None:
        """What an entry follows up must be an earlier entry this export holds, followed up
        once: a story pinned on an entry nobody can see, or on one already followed, fails."""
        parent = body.get("parent_id")
        if parent is None:
            return
        if body.get("kind") in STARTS:
            said = "a roll" if body.get("kind") == ROLL else f"a {body.get('kind')}"
            self.report.add(seq, f"{said} follows nothing up: it starts its own chain")
        elif not isinstance(parent, int) or parent not in self.ids:
            self.report.add(seq, f"it follows up entry {parent}, which this export does not hold")
        elif (first := self.followed.setdefault(parent, seq)) != seq:
            self.report.add(seq, f"it follows up an entry that entry {first} already followed up")

    def _recommitted_before(self, seq: int, body: Mapping[str, Any]) -> None:
        """A re-commit of the dice right before another member's play is how a host that saw
        the play coming would pick its dice: said in the report (the roller's own page says
        whether the play it sent was made under the commitment it saw)."""
        if self.recommit is None:
            return
        at, by = self.recommit
        if seq == at + 1 and body.get("actor_id") != by:
            self.report.recommits.append(seq)
        self.recommit = None

    def hidden(self, seq: int, dice: Any, *, withheld: bool, disclosed: bool = True) -> None:
        """A play this export does not show whole (sealed, or a withheld link); ``disclosed``:
        a reveal of its seed must disclose it (every hidden play but a whisper)."""
        if dice is None:
            if not self.allow_uncommitted:
                self.report.add(
                    seq,
                    f"{'a withheld' if withheld else 'a sealed'} entry must be a play with"
                    " committed dice (only plays are ever hidden)",
                )
            return
        if self._dice_in_force(seq, dice):
            self.report.pending += 1
            if disclosed:
                self.kept.append((seq, str(dice["commitment"])))

    def unknown(self) -> None:
        """A format-1 withheld link: it may have used the next nonce, or no dice at all."""
        self.gap = True

    def finish(self) -> None:
        for seq, commitment in self.kept:
            if commitment in self.seeds:
                where = self.revealed_at.get(commitment)
                at = "" if where is None else f" at entry {where}"
                self.report.add(
                    seq,
                    f"its seed was revealed{at}, so every export must show it whole"
                    " (a public entry passed off as someone's hidden roll?)",
                )

    # the table, the seeds and the dice in force

    def _table(self, record: Mapping[str, Any]) -> None:
        if "ruleset" not in record:
            self.report.notes.append(
                "table: the chain does not record its ruleset (opened before it did)"
            )
            return
        for key, shown in (("ruleset", self.ruleset), ("variants", self.variants)):
            if record.get(key) != shown:
                self.report.add(
                    1, f"its {key} {record.get(key)!r} is not the export's {key} {shown!r}"
                )
        committed = record.get("committed")
        if isinstance(committed, str):
            self.commitment = committed

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

    def _dice_in_force(self, seq: int, dice: Any) -> bool:
        if isinstance(dice, Mapping) and ("contribution" in dice or BLINDED in dice):
            fresh = self._contribution(seq, dice)
        elif isinstance(dice, Mapping) and "nonce" in dice:
            fresh = self._old(seq, dice)
        else:
            self.report.add(seq, "its dice name no commitment and contribution")
            return False
        if not fresh:
            return False
        self.report.rolls += 1
        commitment = str(dice["commitment"])
        if commitment in self.revealed_at:
            at = self.revealed_at[commitment]
            self.report.add(seq, f"it rolled with a seed already revealed at entry {at}")
        elif self.commitment is not None and commitment != self.commitment:
            self.report.add(
                seq, f"it rolled with commitment {commitment[:16]}…, not the one in force"
            )
        self.commitment = commitment
        return True

    def _contribution(self, seq: int, dice: Mapping[str, Any]) -> bool:
        blinded = BLINDED in dice
        value = dice.get(BLINDED if blinded else "contribution")
        if (
            set(dice) != set(BLINDED_DICE_FIELDS if blinded else DICE_FIELDS)
            or not _matches(HASH, dice.get("commitment"))
            or not _matches(HASH if blinded else CONTRIBUTION, value)
            or not isinstance(dice.get("server_chosen"), bool)
        ):
            self.report.add(
                seq,
                "its dice must be exactly a commitment, a contribution (32 to 64 hex digits)"
                " or a whisper's contribution_sha256, and server_chosen",
            )
            return False
        if self.old_format:
            self.report.add(seq, f"a {OLD_FORMAT} export holds no per-roll contributions")
            return False
        # by their hashes, so that a whisper's contribution used again is caught too
        key = str(value) if blinded else contribution_digest(str(value))
        first = self.contributions.setdefault(key, seq)
        if first != seq:
            self.report.add(
                seq, f"its contribution was already used at entry {first} (each roll needs its own)"
            )
        if self.per_roll_at is None:
            self.per_roll_at = seq
        self.report.server_chosen += bool(dice["server_chosen"])
        return True

    def _old(self, seq: int, dice: Mapping[str, Any]) -> bool:
        nonce, client = dice.get("nonce"), dice.get("client_seed")
        if (
            set(dice) != set(OLD_DICE_FIELDS)
            or not isinstance(nonce, int)
            or isinstance(nonce, bool)
            or not isinstance(client, str)
            or not isinstance(dice.get("commitment"), str)
        ):
            self.report.add(seq, "its dice must be exactly a commitment, a client seed and a nonce")
            return False
        if self.per_roll_at is not None:
            self.report.add(
                seq,
                "it rolled with the table's client seed and nonce after per-roll contributions"
                f" began at entry {self.per_roll_at}",
            )
        self._nonce(seq, nonce)
        if client != self.client_seed:
            where = (
                "by default" if self.client_seed_at is None else f"at entry {self.client_seed_at}"
            )
            self.report.add(
                seq, f"it used client seed {client!r}, not {self.client_seed!r} set {where}"
            )
        return True

    def _nonce(self, seq: int, nonce: int) -> None:
        """Each play took the table's next nonce inside the transaction that logged it."""
        if nonce in self.nonces:
            self.report.add(seq, f"nonce {nonce} was already used at entry {self.nonces[nonce]}")
        elif nonce < self.nonce:
            self.report.add(
                seq, f"nonce {nonce} goes back: entry {self.nonce_at} used nonce {self.nonce}"
            )
        elif nonce > self.nonce + 1 and not self.gap:
            self.report.add(
                seq, f"nonce {nonce} skips nonce {self.nonce + 1}: each play takes the next one"
            )
        self.nonces.setdefault(nonce, seq)
        if nonce > self.nonce:
            self.nonce, self.nonce_at = nonce, seq
        self.gap = False

    # faces and replays

    def _faces(
        self, seq: int, dice: Mapping[str, Any], draws: Any, record: Mapping[str, Any]
    ) -> None:
        if BLINDED in dice:
            client, nonce = str(record.get("contribution")), 0
            if not _matches(CONTRIBUTION, client) or contribution_digest(client) != dice[BLINDED]:
                self.report.add(
                    seq, "its record's contribution does not hash to its dice' contribution_sha256"
                )
                return
        elif "contribution" in dice:
            client, nonce = str(dice["contribution"]), 0
        else:
            client, nonce = str(dice["client_seed"]), int(dice["nonce"])
        secret = self.seeds.get(str(dice["commitment"]))
        if secret is None:
            self.report.pending += 1
            return
        try:
            recorded = [_draw(pair) for pair in draws]
            wrong = verify_draws(secret, client, nonce, recorded)
        except (RuleboundError, TypeError, ValueError) as exc:
            self.report.add(seq, f"its draws cannot be checked: {exc}"[:200])
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

    def _replay(self, seq: int, entry_id: Any, body: Mapping[str, Any]) -> None:
        chain = self._chain(seq, entry_id, body)
        if chain is None:
            return
        card, root = body.get("card"), chain[0].get("kind")
        if root not in STARTS:
            self.report.add(
                seq, f"it follows up a {str(root)[:40]} entry: only plays are followed up"
            )
            return
        if not isinstance(card, Mapping):
            record = chain[0].get("record")
            # every action shows its card; a roll entry whose record is no game's roll may not
            if root != ROLL or (isinstance(record, Mapping) and record.get("kind") == ROLL):
                self.report.add(seq, "it shows its record whole but no card")
            return
        records = [b.get("record") for b in chain]
        objects = [dict(r) for r in records if isinstance(r, Mapping)]
        if len(objects) != len(records):
            self.report.add(seq, "its record does not replay: a record is not a JSON object")
            return
        if root in ACTIONS and self._unreplayed(seq, objects):
            return
        assert self.rules is not None
        try:
            replayed = to_jsonable(self.rules.card(objects))
        except BROKEN as exc:
            self.report.add(seq, f"its record does not replay: {exc}"[:200])
            return
        if self._card_differs(seq, replayed, card) or self._older_rules(seq, objects):
            return
        said = card if _wording(card) != _wording(replayed) else replayed
        if not _sums_up(str(body.get("summary") or ""), str(said.get("outcome") or "")):
            self.report.add(seq, "its summary does not end with the outcome its record replays")
            return
        self.report.cards += 1

    def _chain(
        self, seq: int, entry_id: Any, body: Mapping[str, Any]
    ) -> list[Mapping[str, Any]] | None:
        """The bodies of an entry's chain, its first first; None when a link is sealed or
        absent (``_parent`` says so), or the chain loops or runs too long."""
        chain = [body]
        while (parent := chain[0].get("parent_id")) is not None:
            if parent == entry_id:
                self.report.add(seq, "it follows itself up")
                return None
            found = self.bodies.get(parent) if isinstance(parent, int) else None
            if found is None:
                return None
            if len(chain) >= MAX_CHAIN:
                self.report.add(seq, f"its chain of follow-ups is longer than {MAX_CHAIN}")
                return None
            chain.insert(0, found)
        return chain

    def _unreplayed(self, seq: int, chain: Sequence[Mapping[str, Any]]) -> bool:
        """Whether an action's chain is one its ruleset does not rebuild: a kind it names so
        (``Game.unreplayed_actions``), which rolls nothing and is followed up by nothing.
        Counted, not replayed; any other action is rebuilt (or refused) by ``tool_card``."""
        assert self.rules is not None
        kind = chain[0].get("kind")
        if kind not in self.rules.game.unreplayed_actions:
            return False
        if len(chain) > 1 or any(record.get("draws") for record in chain):
            self.report.add(
                seq, f"a {kind} rolls nothing and is never followed up, yet its chain does"
            )
            return True
        self.report.unreplayed += 1
        return True

    def _older_rules(self, seq: int, chain: Sequence[Mapping[str, Any]]) -> bool:
        """A roll names the rules it was played under (``Game.rules_named``); one naming older
        rules than a roll before it would be replayed under a reading it was not played under,
        so a log's rolls name the same or later rules as they go. Its follow-ups have its; an
        action's record is no roll's (the game reads its rules, if it names any, itself)."""
        assert self.rules is not None
        if len(chain) > 1 or chain[0].get("kind") != ROLL:
            return False
        named = self.rules.game.rules_named(chain[0])
        if named < self.rules_named:
            self.report.add(seq, "its record names older rules than a roll before it (edited?)")
            return True
        self.rules_named = named
        return False

    def _reworded(self, seq: int, wording: int) -> bool:
        """Whether a card's words (``Card.wording``) cannot be its own: older than a card's
        before it (a log's words change only forward), or newer than this rulebound reads
        (held only to what it means, its words could say anything)."""
        from rulebound.rulesets.views import WORDING

        if wording > WORDING:
            said = f"its card is in newer words ({wording}) than this rulebound reads ({WORDING})"
            self.report.add(seq, said)
            return True
        if wording < self.wording:
            self.report.add(seq, "its card is in older words than the cards before it (reworded?)")
            return True
        self.wording = wording
        return False

    def _card_differs(self, seq: int, replayed: Mapping[str, Any], card: Mapping[str, Any]) -> bool:
        """Whether the logged card is not the replayed one: every word of it in today's words
        (``Card.wording``); in earlier words, what it means (its outcome's key, success and
        dice). No card may be in older words than one before it, nor name no outcome key
        after one that did: a log's words change only forward."""
        # a card naming an empty key whose replay names none either (a check under way) is
        # not from before keys; a card with no key at all is
        under_way = "outcome_key" in card and not replayed.get("outcome_key")
        keyed = bool(card.get("outcome_key")) or under_way
        if self.worded and not keyed:
            self.report.add(
                seq, "its card names no outcome key though the cards before it do (reworded?)"
            )
            return True
        wording = _wording(card)
        if self._reworded(seq, wording):
            return True
        self.worded = self.worded or keyed
        same = wording == _wording(replayed)
        shown: Sequence[str]
        if keyed:  # word for word in today's words, else by what it means
            shown = sorted(set(replayed) | set(card)) if same else MEANT
        else:  # from before outcome keys: its outcome's words too, if they are today's
            shown = COMPARED if same else COMPARED[1:]
        for key in shown:
            if replayed.get(key) != card.get(key):
                self.report.add(seq, f"replaying its record gives a different {key} than it logged")
                return True
        if not (keyed and same):
            self.report.cards_worded_before += 1
        return False

    def _free_roll(self, seq: int, body: Mapping[str, Any]) -> None:
        """A free roll: its logged expression (or message) parsed again, its draws fed back,
        its card (all but the odds) and summary rebuilt and compared with the log's."""
        from rulebound.core.random_source import ReplaySource
        from rulebound.rulesets.free_roll import REBUILT, WRITTEN_IN, replayed_parts
        from rulebound.rulesets.plays import record_draws
        from rulebound.rulesets.views import card_json

        record, card, summary = body.get("record"), body.get("card"), body.get("summary")
        if not isinstance(record, Mapping) or not isinstance(card, Mapping):
            self.report.add(seq, "a free roll must show its record and its card")
            return
        try:
            source = ReplaySource(record_draws(record))
            parts = replayed_parts(record, source)
            unused = not source.exhausted
        except BROKEN as exc:
            self.report.add(seq, f"its free roll does not replay: {exc}"[:200])
            return
        if unused:
            self.report.add(seq, "its free roll does not use every draw its record holds")
            return
        wording = _wording(card)
        if self._reworded(seq, wording):
            return
        rebuilt = card_json(parts.card)
        if "message" in record and wording < WRITTEN_IN:  # titled with its message as typed
            rebuilt["title"] = record["message"]
        for key in REBUILT:
            if rebuilt.get(key) != card.get(key):
                self.report.add(seq, f"replaying its free roll gives a different {key} than logged")
                return
        said = parts.summary
        after = " " if record.get("emote") is True else ": "  # "Pia ducks [..]", "Pia: [..]"
        if summary != said and not ("message" in record and str(summary).endswith(after + said)):
            self.report.add(seq, "replaying its free roll gives a different summary than logged")
            return
        self.report.free_rolls += 1

    def _turn(self, seq: int, record: Mapping[str, Any]) -> None:
        """A turn order's start or newcomer: its ranks rolled again from its draws (by the
        game's initiative rules, or the plain die) and its order sorted again."""
        from rulebound.rulesets.turns import replay

        assert self.rules is not None
        variants = self.variants if isinstance(self.variants, Mapping) else {}
        try:
            problem = replay(record, self.rules.game, variants)
        except BROKEN as exc:
            problem = f"its turn order does not replay: {exc}"[:200]
        if problem is not None:
            self.report.add(seq, problem)


def _sums_up(summary: str, outcome: str) -> bool:
    """Whether a play's summary is its card's outcome, after whose play it is ("Pia: ..."),
    or the outcome with its leading name said once ("Ana: death save: stable" for "Ana death
    save: stable", as a game's action sums itself up)."""
    if summary == outcome or summary.endswith(": " + outcome):
        return True
    name, said, rest = summary.partition(": ")
    return bool(said) and f"{name} {rest}" == outcome


def _draw(pair: Any) -> Draw:
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        raise ValueError(f"{str(pair)[:40]} is not a [sides, face] pair")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in pair):
        raise ValueError(f"{str(pair)[:40]} is not a pair of whole numbers")
    return Draw(pair[0], pair[1])


def _matches(pattern: re.Pattern[str], value: Any) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def check_seed(commitment: Any, server_seed: Any) -> bool:
    """True when ``server_seed`` is a well-formed seed whose SHA-256 is ``commitment``."""
    try:
        return isinstance(server_seed, str) and commitment_for(server_seed) == commitment
    except RuleboundError:
        return False


def _rules(ruleset: Any, report: Report) -> TableRules[Any, Any] | None:
    from rulebound.core.errors import UnknownRuleset
    from rulebound.rulesets.plays import TableRules
    from rulebound.rulesets.registry import get_game

    try:
        if not isinstance(ruleset, str):
            raise UnknownRuleset("ruleset", ruleset, "a ruleset key")
        return TableRules(get_game(ruleset))
    except UnknownRuleset:
        report.add(
            None,
            f"ruleset {str(ruleset)[:40]!r} is not installed here, so no card can be replayed"
            " (install it; or the export names a ruleset the table never had)",
        )
        return None


def _wording(card: Mapping[str, Any]) -> int:
    found = card.get("wording", FIRST_WORDING)
    return found if isinstance(found, int) and not isinstance(found, bool) else FIRST_WORDING
