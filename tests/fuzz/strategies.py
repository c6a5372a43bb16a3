"""Corruptions shared by the fuzz targets: they turn a valid file into a near-valid one."""

from __future__ import annotations

from hypothesis import strategies as st

# Characters that break naive readers: BOM, NUL, separators, quotes, CR, odd spaces, surrogates'
# neighbours, combining marks, right-to-left text, Chinese.
NASTY = "\ufeff\x00\t,;|\"'\r\n \u00a0\u2028\u0301\u202e中文#:-[]{}&*!%@`\\"
nasty_text = st.text(alphabet=st.sampled_from(NASTY) | st.characters(codec="utf-8"), max_size=40)
# Bytes that are not UTF-8 (lone continuation, truncated sequence, overlong, surrogate, 0xff).
BAD_BYTES = (b"\x80", b"\xc3", b"\xe4\xb8", b"\xc0\xaf", b"\xed\xa0\x80", b"\xff\xfe", b"\x00")


@st.composite
def corrupt_lines(draw: st.DrawFn, lines: list[str]) -> list[str]:
    """Return `lines` with a few random line-level corruptions applied."""
    lines = list(lines)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "duplicate", "swap", "edit", "huge", "truncate"]))
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        if kind == "insert" or not lines:
            lines.insert(at, draw(nasty_text))
        elif kind == "delete":
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "edit":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = line[:cut] + draw(nasty_text) + line[cut + draw(st.integers(0, 3)) :]
        elif kind == "huge":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = (
                line[:cut]
                + draw(st.sampled_from(["x", "中", "\u0301", ","])) * draw(st.sampled_from([1000, 30_000]))
                + line[cut:]
            )
        else:
            lines = lines[: at + 1]
            lines[-1] = lines[-1][: draw(st.integers(0, len(lines[-1])))]
    return lines


@st.composite
def encode(draw: st.DrawFn, lines: list[str]) -> bytes:
    """Return the lines joined by LF or CRLF (or CR), maybe with a BOM and invalid UTF-8 spliced in."""
    newline = draw(st.sampled_from(["\n", "\r\n", "\r", "\n"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    data = (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8", "surrogatepass")
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(BAD_BYTES)) + data[at:]
    return data


def text_of(data: bytes) -> str:
    """Return `data` decoded the way an upload is: UTF-8 with a BOM, bad bytes replaced."""
    return data.decode("utf-8-sig", errors="replace")
