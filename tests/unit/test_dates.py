"""Relative dates resolved against the day a turn was said."""

from datetime import UTC, datetime

from memory_lab.context.dates import dated, resolved_dates
from memory_lab.text import spoken_date

MON_8_MAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_spoken_date_has_no_leading_zero_and_names_the_month():
    assert spoken_date(datetime(2023, 5, 7, tzinfo=UTC)) == "7 May 2023"


def test_yesterday_and_days_ago():
    assert resolved_dates("I went there yesterday.", MON_8_MAY) == [
        "yesterday = 7 May 2023"
    ]
    assert resolved_dates("two days ago we met", MON_8_MAY) == [
        "two days ago = 6 May 2023"
    ]


def test_last_weekday_is_strictly_before_the_day_said():
    # 8 May 2023 is a Monday: "last Monday" is a week back, "last Fri" 5 May.
    assert resolved_dates("Last Monday and last Fri.", MON_8_MAY) == [
        "last monday = Monday 1 May 2023",
        "last fri = Friday 5 May 2023",
    ]


def test_months_and_years():
    assert resolved_dates("last year, this month, last month", MON_8_MAY) == [
        "last year = 2022",
        "this month = May 2023",
        "last month = April 2023",
    ]
    jan = datetime(2024, 1, 3, tzinfo=UTC)
    assert resolved_dates("last month", jan) == ["last month = December 2023"]
    assert resolved_dates("ten years ago", MON_8_MAY) == ["ten years ago = 2013"]


def test_vague_expressions_are_left_alone():
    assert resolved_dates("last week and recently, some days ago", MON_8_MAY) == []
    assert dated("no dates here", MON_8_MAY) == "no dates here"
    assert dated("yesterday!", MON_8_MAY) == "yesterday! [yesterday = 7 May 2023]"
