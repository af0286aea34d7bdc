"""Regenerates the README's picture, docs/images/baton-in-claude-code.svg, from a real run.

Runs the scene `e2e::picture::picture` (tests/e2e/picture.rs: the real Claude Code client in
tmux against the test suite's Messages API mock, with the baton plugin and statusline, offline),
which leaves the screen with its colours as `tmux capture-pane -e -p` gives it, and renders that
to SVG with scripts/ansi_svg.py. Needs what the end-to-end tests need (cargo, tmux, and the client
the tests install under target/ on their first run). Not run by CI.

    python3 scripts/picture.py                    # run the scene, write the SVG
    python3 scripts/picture.py --capture FILE     # render a capture kept from an earlier run
    python3 scripts/picture.py --keep DIR         # also keep the capture (screen.ansi) in DIR
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ansi_svg  # noqa: E402 (beside this script)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = os.path.join(ROOT, "docs", "images", "baton-in-claude-code.svg")
SCENE = "e2e::picture::picture"
TITLE = "baton in Claude Code"


def run_scene(directory):
    """Runs the scene with its capture going to `directory`; returns the capture's path."""
    command = ["cargo", "test", "--test", "integration", SCENE, "--", "--ignored", "--exact", "--nocapture"]
    environment = dict(os.environ, BATON_PICTURE_DIR=directory)
    print("picture: " + " ".join(command), file=sys.stderr)
    subprocess.run(command, cwd=ROOT, env=environment, check=True)
    return os.path.join(directory, "screen.ansi")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--capture", help="render this capture instead of running the scene")
    parser.add_argument("--keep", help="copy the scene's capture into this directory")
    parser.add_argument("--out", default=SVG, help="the SVG to write (default: %(default)s)")
    args = parser.parse_args()
    capture = args.capture
    with tempfile.TemporaryDirectory(prefix="baton-picture-") as directory:
        if capture is None:
            capture = run_scene(directory)
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(capture, args.keep)
        with open(capture, encoding="utf-8", errors="replace") as screen:
            svg = ansi_svg.render(screen.read(), TITLE)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(svg)
    print("picture: wrote " + args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
