"""``treegen serve``: the browser page over a folder of tree files (treegen.serve, on 127.0.0.1)."""

from __future__ import annotations

from .common import add_command, whole


def add_serve(sub) -> None:
    p = add_command(
        sub, "serve", cmd_serve,
        "serve the browser page: play with and explore the tree files of a folder (on 127.0.0.1)",
        "  treegen serve --open                 # http://127.0.0.1:8000/ in your browser\n"
        "  treegen serve --trees my-trees/ --port 0   # any free port; the URL is printed\n",
    )
    p.describe_more = _serves
    p.add_argument("--port", "-p", type=whole(0, 65535), default=8000, metavar="N", help="port to listen on (0: any free port; default 8000)")
    p.add_argument("--trees", default=None, metavar="DIR",
                   help="folder of tree files to list (default: the repository's trees/ when run from a checkout, else the current folder)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")


def _serves() -> str:
    """What is served, said in ``serve --help`` (treegen.serve imports http.server: only when asked)."""
    from ..serve import SERVES

    return SERVES


def cmd_serve(args) -> int:
    from .. import serve

    return serve.run(args.trees, args.port, args.open)
