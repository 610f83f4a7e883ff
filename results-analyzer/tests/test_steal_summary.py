"""scripts/bench/lib/steal_summary.py: who a first answer's title says took the host's CPU, on titles written the
way explain/findings.py writes them."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
import steal_summary  # noqa: E402

sys.path.pop(0)


def test_the_cpu_named_first_or_after_a_database_counter():
    who = steal_summary.cpu_answer
    assert who("p99 +291% (2,278 → 8,910 µs) at t = 67 s (phase 0): host CPU taken by the hypervisor (idle 90 → 55 %; "
               "steal 0 → 21 % of the host: ...)") == "taken by the hypervisor"
    assert who("p99 +30% at t = 25 s (phase 0): host CPU taken by another process (idle 81 → 1 %)") \
        == "taken by another process"
    assert who("p99 +5% at t = 3 s: host CPU taken by another process or the client (idle 81 → 1 %)") \
        == "taken by another process or the client"
    assert who("p99 -68% at t = 70 s (phase 0) for 5 s, then back: host CPU given back by another process (idle 6 → "
               "62 %)") == "given back by another process"
    assert who("p99 +90% at t = 84 s: flush pressure: dirty data (db.Innodb_checkpoint_age 66 → 80 %); meanwhile "
               "host CPU taken by the hypervisor (idle 82 → 72 %)") == "taken by the hypervisor (meanwhile)"
    assert who("p99 +601% at t = 30 s (phase 0): host CPU taken by the client (idle 40 → 16 %)") == "taken by the client"
    assert who("p99 +76% at t = 95 s (phase 0): no recorded metric broke its own trend at that moment") is None


def test_a_folder_with_a_run_that_found_nothing_is_summarised(capsys):
    # the committed held-out runs: some first answers are missing (no finding), so results.json's title is null
    folder = REPO / "docs" / "diagnosis-runs" / "heldout-20261202T193626Z"
    rows = steal_summary.json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert any(r.get("title") is None for r in rows)
    assert steal_summary.main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"over {len(rows)} runs" in out
