"""Configuration of the facts block: its headers, their shares, and gathered lines.

Kept apart from `memory_lab.config`, which imports these models into `FactConfig`,
so that file does not keep growing. Frozen and strict like every config model
there: an invalid value fails at construction and names the field.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Frozen(BaseModel):
    """`config.Frozen`, which this module cannot import without a cycle."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def plain_header(header: str) -> str:
    """A header must not read as a fact line or break the block into two.

    Raises:
        ValueError: naming the header.
    """
    if header != header.strip() or "\n" in header or "\r" in header:
        raise ValueError(
            f"header {header!r} must be one line without surrounding spaces"
        )
    if header.startswith("-"):
        raise ValueError(f"header {header!r} must not start with '-': fact lines do")
    return header


class FactGroup(_Frozen):
    """Fact categories the facts block lists together under one header.

    A header said once costs fewer tokens than a category tag on every line.
    """

    header: str = Field(
        min_length=1,
        max_length=40,
        description="Shown as its own line, followed by a colon.",
    )
    categories: tuple[str, ...] = Field(
        min_length=1, description="Categories listed under the header."
    )
    share: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="Share of the facts block this header's facts fill before "
        "the other headers' facts have had theirs; room the others leave unused "
        "is still theirs to take (`context.fact_shares`). None: no share, the "
        "header's facts fill in rank order with the room left.",
    )

    @field_validator("header")
    @classmethod
    def _plain(cls, header: str) -> str:
        return plain_header(header)


def default_groups() -> tuple[FactGroup, ...]:
    """The block's headers as the design has them, each with its share.

    A reply must not lose the user's one open item behind forty preferences:
    preferences and knowledge a little under a third each, decisions a quarter,
    open items the rest (seed 002's per-category budgets, 300 to 500 tokens of
    1,500, in proportion).
    """
    return (
        FactGroup(
            header="Preferences", categories=("instruction", "preference"), share=0.3
        ),
        FactGroup(header="Decisions", categories=("decision",), share=0.25),
        FactGroup(
            header="Knowledge",
            categories=("identity", "constraint", "knowledge"),
            share=0.3,
        ),
        FactGroup(header="Open items", categories=("unresolved",), share=0.15),
    )


def check_shares(groups: Sequence[FactGroup]) -> None:
    """The headers' shares add up to at most the whole block.

    Raises:
        ValueError: naming the field and the sum.
    """
    total = sum(g.share or 0.0 for g in groups)
    if total > 1.0 + 1e-9:
        raise ValueError(
            f"groups: the headers' shares add up to {total:.2f}, more than the "
            "whole facts block (1.0)"
        )


class GatherConfig(_Frozen):
    """Gathered lines: what one subject said of the kinds a question asks about.

    Multi-session questions ("which cities has she visited?") need values said
    months apart; one dense line holds them, dated, where ten excerpts cannot.
    Built at context time (`facts.gathering`), so it is never out of date.
    """

    enabled: bool = Field(
        default=True,
        description="Offer a gathered line to the context's ranking for each "
        "person or thing a question names.",
    )
    max_line_share: float = Field(
        default=0.055,
        gt=0.0,
        le=0.5,
        description="Most of the context budget one gathered line's values may "
        "take: a dense line, budgeted like any other, which competes for its "
        "place (33 tokens at 600, 82 at 1,500; measured on LoCoMo dev, a fixed "
        "80 tokens cost evidence at 600 and 32 held fewer answers at 1,500).",
    )
    min_values: int = Field(
        default=2,
        ge=2,
        description="Distinct values a line needs (one value is its own fact "
        "line already).",
    )
    min_similarity: float = Field(
        default=0.15,
        ge=-1.0,
        le=1.0,
        description="Least cosine between the question and a group's closest "
        "fact for the group to be gathered (local MiniLM: facts that hold part "
        "of a list answer have a median of 0.20, others 0.10).",
    )
    max_pool: int = Field(
        default=200,
        ge=2,
        description="Most facts of one subject considered per question: those "
        "sharing a word with it first, then the newest. Bounds the cost on "
        "large tenants.",
    )
