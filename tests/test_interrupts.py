"""Ctrl-C and SIGTERM stop every command promptly, with exit 130 / 143, nothing half-written."""
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT


def handlers_installed(pid: int) -> bool:
    """pnpgen has routed SIGTERM to its handler (the bit in /proc/<pid>/status SigCgt)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def interrupt_when_working(argv, sig, cwd=ROOT):
    """Start pnpgen, wait until its handlers are in place (it is working), send sig; return
    (exit code, stderr, seconds from the signal to the exit)."""
    proc = subprocess.Popen([sys.executable, "-m", "generator", *map(str, argv)], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not handlers_installed(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    proc.send_signal(sig)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err, time.monotonic() - sent


@pytest.fixture(scope="module")
def big_pack(tmp_path_factory):
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_cards
    return bench_cards.write_pack(tmp_path_factory.mktemp("big"), bench_cards.make_cards(30_000))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", ["validate", "map", "handout", "build", "export png", "export tts"])
def test_every_command_stops_at_once_with_the_shells_exit_code(tmp_path, big_pack, command, sig):
    out = tmp_path / "out"
    argv = {"validate": ["validate", big_pack],
            "map": ["map", "royal-dukes", "--count", "1000", "--seed", "1", "--format", "pdf", "--out", out],
            "handout": ["handout", "royal-dukes", "--out", out],
            "build": ["build", big_pack, "--out", out, "--quiet"],
            "export png": ["export", "png", big_pack, "--out", out, "--quiet"],
            "export tts": ["export", "tts", big_pack, "--out", out, "--quiet"]}[command]
    code, err, seconds = interrupt_when_working(argv, sig)
    assert code == 128 + sig, err
    assert f"interrupted by {signal.Signals(sig).name}" in err and "Traceback" not in err, err
    assert seconds < 5, f"took {seconds:.1f} s to stop"     # promptly; the measured figure is far below
    assert not out.exists() or not any(out.rglob("*.*")), "nothing written"
