"""The peer memory libraries as named systems: `mem0` and `langmem`.

Registered here, built by `memlab_evals.peers` only when one is named, so their
libraries (the ``peers`` extra) load only then. Each needs a model: without one
it is skipped, and its row says so.
"""

from __future__ import annotations

from memlab_evals.systems.registry import BuildArgs, SystemEntry, register
from memlab_evals.systems.types import System


def _peer(name: str):
    def build(args: BuildArgs) -> System:
        from memlab_evals.peers import make_peer

        return make_peer(
            name,
            budget=args.budget,
            counter=args.counter,
            llm=args.llm,
            data_dir=args.data_dir,
        )

    return build


register(
    SystemEntry(
        name="mem0",
        kind="peer",
        description="Mem0's own extraction, update and search over its memories, "
        "cut to the budget; needs a model",
        build=_peer("mem0"),
        order=10,
    )
)
register(
    SystemEntry(
        name="langmem",
        kind="peer",
        description="LangMem's memory manager and search over its memories, cut to "
        "the budget; needs a model",
        build=_peer("langmem"),
        order=20,
    )
)
