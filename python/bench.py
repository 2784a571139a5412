"""Random playouts driven from Python: our Kalah against OpenSpiel's own Kalah (`mancala`), the same loop.

    python python/bench.py [--seconds 3]

Each side plays uniformly random games for the given time in the same Python loop (legal_actions, a random
pick, apply_action, until terminal) and reports plies per second; then our batch call (`mancala.play_random`,
the games played in Rust on every core) for the throughput without Python in the loop. A benchmark, not a
test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

# Run as `python python/bench.py`: the installed package, not its sources beside this file (no native module).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import mancala  # noqa: E402


def python_loop(new_state, seconds: float, seed: int = 1):
    rng = random.Random(seed)
    choice = rng.choice
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each measurement")
    parser.add_argument("--game", default="kalah", help="our game (a shipped game or a rule file)")
    args = parser.parse_args()

    ours = mancala.load(args.game)
    rows = []
    try:
        import pyspiel

        theirs = pyspiel.load_game("mancala")
        rows.append(("OpenSpiel mancala (C++), Python loop", python_loop(theirs.new_initial_state, args.seconds)))
    except ImportError:
        print("open_spiel is not installed: OpenSpiel's Kalah left out")
    rows.append((f"mancala {args.game}, Python loop", python_loop(ours.new_initial_state, args.seconds)))

    n = 1000
    start = time.perf_counter()
    while True:
        runs = mancala.play_random(ours, n, seed=1)
        elapsed = time.perf_counter() - start
        if elapsed >= args.seconds / 4:
            break
        n *= 4
        start = time.perf_counter()
    rows.append((f"mancala {args.game}, play_random (Rust, all cores)",
                 (n / elapsed, float(runs.plies.sum()) / elapsed)))

    width = max(len(name) for name, _ in rows)
    print(f"{'driver':<{width}}  {'games/s':>10}  {'plies/s':>12}")
    for name, (games, plies) in rows:
        print(f"{name:<{width}}  {games:>10,.0f}  {plies:>12,.0f}")
    if len(rows) == 3:
        print(f"ours / OpenSpiel in the Python loop: {rows[1][1][1] / rows[0][1][1]:.2f}x the plies per second")


if __name__ == "__main__":
    main()
