"""Telling a file's format from its name and first lines, and saying why when it cannot."""

from __future__ import annotations

import pytest

from formats.detect import detect_format

BLIMP = b'{"sentence_good": "a", "sentence_bad": "b", "field": "syntax", "UID": "x", "pairID": "0"}\n'
HF_BLIMP = b'{"sentence_good": "a", "sentence_bad": "b", "UID": "x", "pair_id": 0}\n'
ZHOBLIMP = (
    '{"UID": "BA", "phenomenon": "BA", "sentence_good": "他", "sentence_bad": "她", "pairID": 0}\n'.encode()
)


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("anything.jsonl", BLIMP, "blimp"),
        ("anything.txt", HF_BLIMP, "blimp"),  # the content decides, not the suffix
        ("BA.jsonl", ZHOBLIMP, "zhoblimp"),
        ("BA.jsonl", b"\xef\xbb\xbf" + ZHOBLIMP, "zhoblimp"),
        ("broken.jsonl", b"{not json\n" + BLIMP, "blimp"),  # a malformed first line does not decide
        ("binding-principle_a.txt", b"sarah likes herself .\nsarah likes himself .\n", "zorro"),
        ("binding-principle_a", b"sarah likes herself .\n", "zorro"),
    ],
)
def test_formats_are_told(name: str, head: bytes, expected: str) -> None:
    assert detect_format(name, head)[0] == expected


@pytest.mark.parametrize(
    ("name", "head", "reason"),
    [
        ("x.jsonl", b"", "empty"),
        ("x.jsonl", b"\x00\x01\x02", "binary"),
        ("x.jsonl", "a\n".encode("utf-16"), "UTF-16"),
        ("x.jsonl", b'{"sentence_good": "a", "sentence_bad": "b"}\n', "choose the format"),
        ("x.jsonl", b'{"text": "a"}\n', "no sentence_good"),
        ("x.jsonl", b"plain words\nmore words\n", "none of its first 2 lines is a JSON object"),
        ("x.csv", b"a,b\n", "choose the format"),
    ],
)
def test_undecidable_files_say_why(name: str, head: bytes, reason: str) -> None:
    fmt, why = detect_format(name, head)
    assert fmt == "" and reason in why
