"""Hostile and broken input: no traceback, bounded time and memory, nothing outside the pack
read, earlier output never destroyed."""
import fcntl
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT, copy_pack, read_until, run_cli, start_on_terminal
from generator import cli, render


def snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_bom_and_windows_line_endings_are_accepted(tmp_path):
    pack = copy_pack("mini", tmp_path)
    for name in ("game.yaml", "cards.yaml"):
        text = (pack / name).read_text()
        (pack / name).write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    code, out, err = run_cli("validate", pack)
    assert code == 0, err


def test_a_50_mb_manifest_is_refused_quickly(tmp_path):
    pack = copy_pack("mini", tmp_path)
    with open(pack / "huge.yaml", "w") as handle:
        handle.write("groups:\n")
        handle.write("# padding\n" * (5 * 1024 * 1024))
    start = time.monotonic()
    code, out, err = run_cli("validate", pack)
    assert code == 1 and "Traceback" not in err
    assert "huge.yaml:1:1: file is 50 MB, over the 20 MB limit for a manifest; split it" in err
    assert time.monotonic() - start < 30


@pytest.mark.slow
def test_100000_cards_are_checked_in_one_pass(tmp_path):
    pack = copy_pack("mini", tmp_path)
    items = "".join(f"      - {{id: c{i}, title: Card {i}, body: Text {i}.}}\n" for i in range(100_000))
    (pack / "cards.yaml").write_text(
        "groups:\n  - id: cards\n    kind: card\n    size: poker\n    template: card.svg.j2\n"
        "    rulebook_count: 99999\n    fields: {title: text, body: text}\n    items:\n" + items)
    code, out, err = run_cli("validate", pack, timeout=600)
    assert code == 1 and "Traceback" not in err
    assert "group 'cards' has 100000 components (sum of copies) but rulebook_count is 99999" in err


def run_in_process(argv, capsys):
    code = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("template,message", [
    ("{{ ''.__class__.__mro__ }}", "access to attribute '__class__' of text is unsafe"),
    ("{% for i in range(1000000) %}x{% endfor %}", "range() of 1,000,000 steps is over the limit of 10,000"),
    ("{{ cycler.__init__.__globals__ }}", "unsafe"),
    ("{% include '/etc/passwd' %}", "/etc/passwd"),
    ("{{ item.nope }}", "no key 'nope' here (the keys are: id, title, body, n); check the name, or add the field"),
])
def test_templates_run_sandboxed(tmp_path, capsys, template, message):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(template)
    code, out, err = run_in_process(["build", pack, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 1
    assert "group 'cards', item 'plain-1' (front): template card.svg.j2" in err and message in err, err


@pytest.mark.slow
def test_a_template_that_loops_for_ever_is_stopped(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(render, "TEMPLATE_SECONDS", 1)
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text(
        "{% for i in range(10000) %}{% for j in range(10000) %}{% for k in range(10000) %}{% endfor %}{% endfor %}{% endfor %}")
    start = time.monotonic()
    code, out, err = run_in_process(["build", pack, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 1 and "template card.svg.j2 ran for more than 1 s" in err
    assert time.monotonic() - start < 20


def test_symlinked_icon_pointing_out_of_the_pack_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "icons" / "star.svg").unlink()
    outside = tmp_path / "outside.svg"
    outside.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')
    (pack / "icons" / "star.svg").symlink_to(outside)
    code, out, err = run_cli("validate", pack)
    assert code == 1 and "icon 'star': 'icons/star.svg' points outside the game pack" in err


@pytest.mark.slow
def test_a_second_build_into_a_locked_folder_is_refused(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    (out / "mini").mkdir(parents=True)
    lock = os.open(out / "mini", os.O_RDONLY | os.O_DIRECTORY)     # the folder itself is the lock
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    finally:
        os.close(lock)
    assert code == 1 and "another pnpgen command is writing" in err and "Traceback" not in err
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, err
    assert not any(p.name.startswith(".") for p in (out / "mini").iterdir()), "no lock file is left"


def big_deck(tmp_path: Path, cards: int) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_cards
    return bench_cards.write_pack(tmp_path, bench_cards.make_cards(cards))


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_build_killed_midway_leaves_the_previous_output(tmp_path, sig):
    pack = big_deck(tmp_path, 60)
    out = tmp_path / "out"
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, err
    before = snapshot(out / "bench-deck")
    big_deck(tmp_path / "big", 3000)
    (pack / "deck.yaml").write_bytes((tmp_path / "big" / "bench-deck" / "deck.yaml").read_bytes())
    proc, terminal = start_on_terminal(["build", str(pack), "--out", str(out)])
    seen = read_until(terminal, proc, "faces")     # the progress bar: loaded and drawing
    assert "faces" in seen and proc.poll() is None, seen
    proc.send_signal(sig)
    assert proc.wait(timeout=60) == 128 + sig
    err = seen + read_until(terminal, proc, "\n\n")
    assert "interrupted by" in err and "earlier output left as it was" in err and "Traceback" not in err
    assert snapshot(out / "bench-deck") == before
    assert sorted(p.name for p in (out / "bench-deck").iterdir()) == sorted(before)
    assert [p.name for p in out.iterdir()] == ["bench-deck"], "no staging folder left"


MUTATIONS = ("drop", "duplicate", "retype", "truncate")


def built_mini(tmp_path_factory):
    """A fresh copy of the test pack, built: (pack, output folder, snapshot of its output)."""
    tmp = tmp_path_factory.mktemp("mut")
    pack = copy_pack("mini", tmp)
    out = tmp / "out"
    assert cli.main(["build", str(pack), "--out", str(out), "--quiet"]) == 0
    return pack, out, snapshot(out / "mini")


def _mutate(data, rng: random.Random, kind: str):
    """Apply one mutation at a random place of the parsed manifest."""
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for key in sorted(node, key=str):
                walk(node[key], path + [key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, path + [index])
    walk(data, [])
    path = rng.choice(paths[1:])
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if kind == "drop":
        del parent[last]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.append(parent[last])
    elif kind == "duplicate":
        parent[f"{last}_copy"] = parent[last]
    else:
        parent[last] = rng.choice([None, 0, -5, 3.5, "", "x" * 300, [1, 2], {"a": 1}, True, 10 ** 12])
    return data


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNPGEN_MUTATIONS", "40")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 9), kind=st.sampled_from(MUTATIONS), file=st.sampled_from(["game.yaml", "cards.yaml"]))
def test_mutated_manifests_never_crash_nor_touch_output(tmp_path_factory, capsys, seed, kind, file):
    pack, out, before = built_mini(tmp_path_factory)
    rng = random.Random(seed)
    path = pack / file
    if kind == "truncate":
        text = path.read_text()
        path.write_text(text[: rng.randrange(len(text))])
    else:
        path.write_text(yaml.safe_dump(_mutate(yaml.safe_load(path.read_text()), rng, kind), sort_keys=False))
    capsys.readouterr()
    code = cli.main(["build", str(pack), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code in (0, 1)
    if code == 1:
        assert err.strip() and snapshot(out / "mini") == before


def test_a_template_cannot_load_files_or_urls(tmp_path, capsys):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text('<image x="0" y="0" width="10" height="10" href="file:///etc/passwd"/>')
    code, out, err = run_in_process(["build", pack, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 1 and re.search(r"cards\.yaml:11:9: group 'cards', item 'plain-1' \(front\): template card\.svg\.j2: SVG refers to an external resource \(file:///etc/passwd\)", err), err


HOSTILE_TOKENS = ("<", ">", "&", '"', "'", "</g>", "<g>", "{{", "}}", "{%", "%}", "{{ 1 / 0 }}", "{{ item.nope }}",
                  "nan", "1e308", "-1e309", "inf", "<!DOCTYPE x>", "{{ 'x' * 10 ** 9 }}", "{{ text_line('a', 0, 0, 1e308) }}",
                  '<image href="/etc/passwd"/>', "scale(0)", "\x00", "\ufeff")
TEMPLATE_MUTATIONS = ("insert", "delete", "duplicate", "truncate")
IMAGE_MUTATIONS = ("truncate", "flip", "png-magic", "gzip", "nest", "noise")


def _mutated_text(text: str, rng: random.Random, kind: str) -> str:
    at = rng.randrange(len(text) + 1)
    span = rng.randrange(1, 40)
    if kind == "insert":
        return text[:at] + rng.choice(HOSTILE_TOKENS) + text[at:]
    if kind == "delete":
        return text[:at] + text[at + span:]
    if kind == "duplicate":
        return text[:at] + text[at:at + span] * rng.randrange(2, 50) + text[at:]
    return text[:at]


def _mutated_image(data: bytes, rng: random.Random, kind: str) -> bytes:
    import gzip
    if kind == "truncate":
        return data[: rng.randrange(len(data))]
    if kind == "flip":
        raw = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if kind == "png-magic":
        return b"\x89PNG\r\n\x1a\n" + data[rng.randrange(len(data)):]
    if kind == "gzip":
        return gzip.compress(data)[: rng.randrange(10, 10 + len(data))]
    if kind == "nest":
        depth = rng.choice([10, 1000, 60_000])
        return data.replace(b"</svg>", b"<g>" * depth + b"</g>" * depth + b"</svg>")
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000)))


def _build_after(pack, out, capsys):
    capsys.readouterr()
    code = cli.main(["build", str(pack), "--out", str(out), "--quiet"])
    return code, capsys.readouterr().err


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNPGEN_MUTATIONS", "40")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 9), kind=st.sampled_from(TEMPLATE_MUTATIONS),
       file=st.sampled_from(["card.svg.j2", "card-back.svg.j2", "board.svg.j2"]))
def test_mutated_templates_never_crash_nor_touch_output(tmp_path_factory, capsys, seed, kind, file):
    pack, out, before = built_mini(tmp_path_factory)
    path = pack / "templates" / file
    path.write_text(_mutated_text(path.read_text(), random.Random(seed), kind))
    code, err = _build_after(pack, out, capsys)
    assert code in (0, 1) and "Traceback" not in err and "Exception ignored" not in err, err
    if code == 1:
        assert "template " in err or ".yaml" in err, err       # every refusal names its place
        assert snapshot(out / "mini") == before


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNPGEN_MUTATIONS", "40")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 9), kind=st.sampled_from(IMAGE_MUTATIONS), where=st.sampled_from(["icon", "embedded"]))
def test_mutated_images_never_crash_nor_touch_output(tmp_path_factory, capsys, seed, kind, where):
    """Icons (SVG files of the pack) and images embedded in a template (data: URLs), broken
    every way a file breaks."""
    import base64
    import io
    from PIL import Image
    tmp = tmp_path_factory.mktemp("mut")
    pack = copy_pack("mini", tmp)
    out = tmp / "out"
    rng = random.Random(seed)
    if where == "embedded":
        buffer = io.BytesIO()
        Image.new("RGB", (30, 20), "blue").save(buffer, rng.choice(["PNG", "GIF", "JPEG"]))
        card = pack / "templates" / "card.svg.j2"
        card.write_text(card.read_text() + '<image href="data:image/png;base64,@@" x="1" y="1" width="9" height="6"/>')
        card.write_text(card.read_text().replace("@@", base64.b64encode(buffer.getvalue()).decode()))
    assert cli.main(["build", str(pack), "--out", str(out), "--quiet"]) == 0
    before = snapshot(out / "mini")
    if where == "icon":
        icon = pack / "icons" / "star.svg"
        icon.write_bytes(_mutated_image(icon.read_bytes(), rng, kind))
    else:
        text = card.read_text()
        encoded = text.split("base64,")[1].split('"')[0]
        broken = _mutated_image(base64.b64decode(encoded), rng, kind)
        card.write_text(text.replace(encoded, base64.b64encode(broken).decode()))
    code, err = _build_after(pack, out, capsys)
    assert code in (0, 1) and "Traceback" not in err and "Exception ignored" not in err, err
    if code == 1:
        assert ("game.yaml:" in err and "icon 'star'" in err) or "template card.svg.j2" in err, err
        assert snapshot(out / "mini") == before
