"""A turn every memory reads is parsed once, and the kept parse is a fresh one's."""

from __future__ import annotations

from memory_lab.brains.offline.parse.pipeline import PARSED_KEPT, parse_many, pipeline


def _reading(doc) -> list[tuple[str, str, str, str, int]]:
    return [(t.text, t.tag_, t.dep_, t.lemma_, t.head.i) for t in doc]


def test_a_text_parsed_again_is_the_kept_document() -> None:
    first = parse_many(["I sold my bike in May.", "We moved to Porto last spring."])
    again = parse_many(["We moved to Porto last spring.", "A third, new sentence."])
    assert again[0] is first[1]
    assert [d.text for d in again] == [
        "We moved to Porto last spring.",
        "A third, new sentence.",
    ]


def test_a_kept_parse_reads_as_the_text_parsed_alone_and_mended() -> None:
    text = "Yesterday I forgot my keys and rewrote the whole report."
    among = parse_many(["Short one.", text, "Another line about my sister Ana."])[1]
    alone = pipeline()(text)
    assert [t.tag_ for t in among] == [t.tag_ for t in alone]
    assert [t.dep_ for t in among] == [t.dep_ for t in alone]
    lemmas = {t.text: t.lemma_ for t in among}
    assert lemmas["forgot"] == "forget" and lemmas["rewrote"] == "rewrite"


def test_the_kept_documents_are_bounded(monkeypatch) -> None:
    from memory_lab.brains.offline.parse import pipeline as module

    assert PARSED_KEPT >= 1000  # a long conversation's turns, for every reader
    monkeypatch.setattr(module, "PARSED_KEPT", 3)
    texts = [f"Sentence number {i} about the garden." for i in range(5)]
    first = parse_many(texts[:1])[0]
    parse_many(texts[1:])
    assert parse_many(texts[:1])[0] is not first  # evicted, parsed again


def test_callers_during_the_background_load_share_one_load(monkeypatch) -> None:
    """The app's warm-up and the worker's first extraction load the model once."""
    import threading
    import types

    from memory_lab.brains.offline.parse import pipeline as module

    loads: list[int] = []
    asking = threading.Event()

    def load() -> object:
        loads.append(1)
        # Hold the load until the second caller is on its way in (a lagging
        # thread can only make this test pass without proving anything).
        asking.wait(10)
        threading.Event().wait(0.2)
        return object()

    monkeypatch.setattr(module, "_LOADED", [])
    monkeypatch.setattr(
        module.importlib, "import_module", lambda name: types.SimpleNamespace(load=load)
    )
    warm = threading.Thread(target=module.pipeline)
    warm.start()
    got: list[object] = []

    def first_extraction() -> None:
        asking.set()
        got.append(module.pipeline())

    worker = threading.Thread(target=first_extraction)
    worker.start()
    warm.join(10)
    worker.join(10)
    assert loads == [1]
    assert got == [module.pipeline()]
