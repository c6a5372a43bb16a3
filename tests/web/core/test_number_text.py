"""The one owner of how pages and cards write numbers (`core.number_text`)."""

import math

from mpp_studio.core.number_text import ms_text, number_text, p_text, share_text


def test_numbers_as_pages_write_them() -> None:
    assert (share_text(0.875), share_text(0.875, 0)) == ("87.5%", "88%")
    assert (number_text(1.23456), number_text(1.23456, 3)) == ("1.23", "1.235")
    assert (p_text(0.03124), p_text(0.00001)) == ("0.0312", "< 0.0001")
    assert ms_text(1234.4) == "1,234 ms"
    for missing in (None, math.nan, "0.5", True):
        assert {share_text(missing), number_text(missing), p_text(missing), ms_text(missing)} == {"–"}
