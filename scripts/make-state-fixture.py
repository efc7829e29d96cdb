#!/usr/bin/env python3
"""Makes the state-folder fixture of a release: Tests/EndToEndTests/Fixtures/state-VERSION/.

    PEERD_BIN_DIR=.build/release python3 scripts/make-state-fixture.py 0.1.0

Run once per release, with that release's binaries, never regenerated afterwards: the fixture is what a
user's state folder looked like under that release, and StateFixtureTests opens it with today's peerd.
Two real peerd on loopback: carol joins alice by invite code; both add, remove, mark, watch, and vote in
a pick that alice closes. alice's state folder (less its lock and TMDB cache) is kept, with
`expected.json`: what the folder holds as that release read it (identity, trust, list, marks, peers).
The identity key in it is a test key, made for this fixture and used nowhere else.
"""
import json
import pathlib
import shutil
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "integration"))
import harness  # noqa: E402

ROOT = harness.ROOT


def main(version):
    target = ROOT / "Tests/EndToEndTests/Fixtures" / f"state-{version}"
    if target.exists():
        sys.exit(f"{target} exists: a release's fixture is made once and kept")
    work = pathlib.Path(tempfile.mkdtemp(prefix="peerd-fixture-"))
    alice = harness.Peerd(work, "alice", harness.free_port()).start()
    carol = harness.Peerd(work, "carol", harness.free_port()).start()
    try:
        build(alice, carol)
        expected = {"release": version, "peer": alice.id, "trusted": [carol.id],
                    "movies": sorted(alice.movies(), key=lambda m: m["movieId"]),
                    "staticPeers": [f"127.0.0.1:{carol.port}"],
                    "pick": pick_state(alice)}
    finally:
        alice.stop()
        carol.stop()
    shutil.copytree(alice.state_dir, target, ignore=shutil.ignore_patterns("lock", "tmdb"))
    (target / "expected.json").write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    print(f"{target}: {sorted(p.name for p in target.iterdir())}")


def pick_state(alice):
    state = alice.peerctl_json("pick", "--status")
    return {"open": state["open"], "result": state["result"]}


def build(alice, carol):
    code = alice.peerctl_json("invite")["code"]
    joined = carol.peerctl_json("join", code, "--address", f"127.0.0.1:{alice.port}")
    assert joined["peer"] == alice.id, joined
    for movie, title in ((603, "The Matrix"), (550, "Fight Club"), (13, "Forrest Gump"), (680, "Pulp Fiction")):
        alice.add(movie, title)
    carol.add(27205, "Inception")
    carol.add(129, "Spirited Away · 千と千尋の神隠し")
    harness.expect_eventually(lambda: alice.movie_ids() == {603, 550, 13, 680, 27205, 129}, 20, "carol's adds")
    alice.peerctl_json("remove", "680")
    for args in (("want", "603"), ("seen", "13"), ("rate", "550", "9"), ("veto", "129")):
        alice.peerctl_json(*args)
    carol.peerctl_json("want", "27205")
    harness.expect_eventually(lambda: carol.movie_ids() == alice.movie_ids(), 20, "the list reaching carol")
    carol.peerctl_json("watched", "13", "--with", "alice,carol")
    harness.expect_eventually(lambda: len(alice.peerctl_json("history")["entries"]) >= 12, 20, "carol's marks")
    alice.peerctl_json("pick", "--with", "alice,carol")
    for who in (alice, carol):
        for movie in (603, 550, 27205):
            who.peerctl_json("vote", "yes" if movie != 550 else "no", str(movie))
    harness.expect_eventually(lambda: alice.peerctl_json("pick", "--status").get("result"), 20, "the pick's result")
    alice.peerctl_json("connect", f"127.0.0.1:{carol.port}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "0.1.0")
