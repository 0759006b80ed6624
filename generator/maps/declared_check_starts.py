"""The declared checker's rules about where the starts lie (declared_check.py): start areas kept
apart, starts on or off the edge, the steps to the nearest cell of a type, and each start's quota.
Functions of the checker `ck`, reading the layout's cells as it gathered them.
"""
from __future__ import annotations


def start_areas_apart(ck, n, rule, cells, kinds, report) -> None:
    areas = [{c, *(m for m in ck._around(c) if m in kinds)} for c in cells if len(c) == 2]
    meet = [(min(a), min(b)) for i, a in enumerate(areas) for b in areas[i + 1:] if a & b]
    if meet:
        report(str(rule.get("id") or f"start-areas-apart-{n + 1}"),
               f"{len(meet)} pair(s) of starts whose areas (the start and its neighbours) share a cell",
               str(rule.get("quote", "")), bool(rule.get("policy", False)))


def start_where(ck, n, rule, starts, kinds, dist, report, players) -> None:
    """start_edge: each start on (off) the edge; start_nearest: the steps from each start to
    its nearest cell of A within min-max, and differing by at most spread."""
    kind = "start_edge" if "start_edge" in rule else "start_nearest"
    if kind == "start_edge":
        on = rule["start_edge"] == "on"
        wrong = [c for c in starts if (c in ck.edge) != on]
        message = f"start(s) {'not ' if on else ''}on the edge: {ck.names(wrong)}"
    else:
        targets = ck._members(rule["start_nearest"], kinds)
        steps = {c: min((dist(c, m) for m in targets), default=None) for c in starts}
        low, high = per_count(rule.get("min"), players), per_count(rule.get("max"), players)
        wrong = [c for c, d in steps.items() if d is None or (low is not None and d < low)
                 or (high is not None and d > high)]
        found = [d for d in steps.values() if d is not None]
        if "spread" in rule and found and max(found) - min(found) > distance_for(rule["spread"], players):
            wrong = sorted(steps)
        message = (f"steps from each start to the nearest {rule['start_nearest']} "
                   + ", ".join(f"{ck.name(c)}: {steps[c]}" for c in sorted(steps))
                   + f" (wanted {low if low is not None else 0}-{'any' if high is None else high}"
                   + (f", differing by at most {rule['spread']}" if "spread" in rule else "") + ")")
    if wrong:
        report(str(rule.get("id") or f"{kind.replace('_', '-')}-{n + 1}"), message,
               str(rule.get("quote", "")), bool(rule.get("policy", False)))


def start_quota(ck, n, rule, starts, kinds, dist, report, players) -> None:
    target, within = rule["start_quota"], distance_for(rule.get("within", 1), players)
    members = ck._members(target, kinds)
    low, high = per_count(rule.get("min"), players), per_count(rule.get("max"), players)
    wrong = []
    for s in starts:
        if len(s) != 2:
            continue
        have = sum(1 for c in members if dist(s, c) <= within)
        if (low is not None and have < low) or (high is not None and have > high):
            wrong.append(f"{ck.name(s)} has {have}")
    if wrong:
        report(str(rule.get("id") or f"start-quota-{n + 1}"),
               f"{target} within {within} of a start outside {low or 0}-{'any' if high is None else high}: "
               + "; ".join(wrong), str(rule.get("quote", "")), bool(rule.get("policy", False)))



def per_count(value, players):
    """A number of the rules, or its value for this player count when given per player count
    ({3: 1, 4: 2}); None when the layout's player count has none (or is no number at all)."""
    if not isinstance(value, dict):
        return value
    return value.get(players) if isinstance(players, int) else None


def distance_for(value, players) -> int:
    """A distance (step, within, spread, an allowance) of the rules, or its value for this player
    count; for a player count the game does not have (a fault said on its own) the largest."""
    if not isinstance(value, dict):
        return value
    return value.get(players, max(value.values())) if isinstance(players, int) else max(value.values())
