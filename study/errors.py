"""The one error a study design reports to the researcher."""

from __future__ import annotations


class StudyError(ValueError):
    """A design setting, item or stored design the study engine cannot use; the message says
    which one and why, in words a researcher can act on."""
