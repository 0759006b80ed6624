"""`options:` of a map.yaml `layout:` -> what each command-line switch of `pnpgen map` allows:
a number of breaks of named placement rules ("Try to arrange it that settlements are not
adjacent ... (Some of this is ok)"), each mistake named with its place. declared_allow.py deals
within the allowance; declared_check.py, written apart, reads the section for itself.
"""
from __future__ import annotations

from ..errors import did_you_mean


# the switches of `pnpgen map` an option may be (MapOptions fields that are true or false)
SWITCHES = ("relaxed",)
# the rules whose breaks can be counted one by one, and so allowed a few at a time
ALLOWABLE = ("not_adjacent", "min_distance", "off_edge", "on_edge", "near")
MAX_ALLOWED = 100_000
STRICT = "strict"           # what a layout made without any option records as metrics.rules


def read(rd, value, rules: list, players: tuple) -> dict:
    """name -> {"allow": {rule index: {player count: most breaks}}, "quote"}."""
    if value is None:
        return {}
    out = {}
    for name, entry in rd.mapping(value, "options").items():
        where = f"options.{name}"
        if name not in SWITCHES:
            rd.fail(where, f"'{name}' is not a switch of pnpgen map",
                    f"name one of {', '.join(SWITCHES)} (pnpgen map --relaxed)")
        entry = rd.mapping(entry, where)
        rd.keys(entry, where, ("allow", "quote"))
        allow = rd.mapping(entry.get("allow"), f"{where}.allow")
        if not allow:
            rd.fail(f"{where}.allow", "allows nothing", "name the rules it lets break: {RULE-ID: most breaks}")
        out[str(name)] = {"allow": {_rule(rd, f"{where}.allow.{rule_id}", rule_id, rules):
                                    rd.per_players(most, f"{where}.allow.{rule_id}", players, 0, MAX_ALLOWED)
                                    for rule_id, most in allow.items()},
                          "quote": str(entry.get("quote", ""))}
    return out


SHOWN_IDS = 12      # rule ids named in a message


def _rule(rd, where: str, rule_id, rules: list) -> int:
    """The index of the one constraint with this id, which must be a rule whose breaks count."""
    found = [n for n, r in enumerate(rules) if r.id == str(rule_id)]
    if not found:
        ids = list(dict.fromkeys(r.id for r in rules if r.id and r.kind in ALLOWABLE))
        rd.fail(where, f"'{rule_id}' is not the id of a rule under constraints:",
                did_you_mean(rule_id, [r.id for r in rules],
                             f"name a rule by its id: {', '.join(ids[:SHOWN_IDS]) or 'no rule whose breaks count has an id'}"
                             + (f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")))
    if len(found) > 1:
        rd.fail(where, f"'{rule_id}' is the id of {len(found)} rules", "give the rule it allows an id of its own")
    rule = rules[found[0]]
    if rule.kind not in ALLOWABLE:
        rd.fail(where, f"'{rule_id}' is a {rule.kind} rule, whose breaks are not counted one by one",
                f"allow breaks of {', '.join(ALLOWABLE)} rules")
    return found[0]
