"""The quality report page of one paradigm of a dataset (viewers and up)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from generator.quality import Difference, QualityReport
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.datasets.selectors import dataset_get, dataset_paradigms
from mpp_studio.datasets.services.quality import MAX_REPORT_PAIRS, configured_tokenizers, paradigm_quality
from vocab.frequency import FREQUENCY_SOURCES, PACKAGED_SOURCES


@login_required
@require_GET
def paradigm_quality_view(request: HttpRequest, project_id: int, dataset_id: int, uid: str) -> HttpResponse:
    """Length, token, frequency, repetition and OOV figures of a paradigm's pairs."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    paradigms = list(dataset_paradigms(dataset=dataset))
    paradigm = next((p for p in paradigms if p.uid == uid), None)
    if paradigm is None:
        raise Http404("No such paradigm in this dataset.")
    tokenizers = configured_tokenizers()
    chosen = request.GET.get("tokenizer", next(iter(tokenizers), ""))
    quality = paradigm_quality(
        paradigm=paradigm,
        tokenizer_name=chosen,
        frequency_source=request.GET.get("frequency", "wordfreq"),
    )
    context = project_context(request, project, active_tab="datasets")
    context.update(
        dataset=dataset,
        paradigm=paradigm,
        paradigms=paradigms,
        quality=quality,
        report=quality.report,
        lengths=_length_rows(quality.report) if quality.report else [],
        percent=_percentages(quality.report) if quality.report else {},
        reused=[(u.word, u.pairs, _pct(u.share)) for u in quality.report.repetition.most_reused]
        if quality.report
        else [],
        items=[(u.word, u.pairs, _pct(u.share)) for u in quality.report.repetition.most_reused_items]
        if quality.report
        else [],
        tokenizers=tokenizers,
        frequency_sources=[
            (name, PACKAGED_SOURCES[name].description if name in PACKAGED_SOURCES else "wordfreq")
            for name in FREQUENCY_SOURCES
        ],
        max_pairs=MAX_REPORT_PAIRS,
    )
    return render(request, "datasets/quality.html", context)


def _pct(share: float | None) -> str:
    return "—" if share is None else f"{100 * share:.1f}%"


def _length_rows(report: QualityReport) -> list[dict[str, str]]:
    """Rows of the length table: characters, words and (with a tokenizer) tokens."""
    measures: list[tuple[str, Difference]] = [("Characters", report.characters), ("Words", report.words)]
    if report.tokenizer is not None:
        measures.append((f"Tokens ({report.tokenizer.tokenizer})", report.tokenizer.tokens))
    return [
        {
            "measure": name,
            "mean": f"{d.mean:+.2f}",
            "min": f"{d.min:+d}",
            "max": f"{d.max:+d}",
            "equal": _pct(d.equal_share),
            "good_longer": _pct(d.good_longer_share),
            "bad_longer": _pct(d.bad_longer_share),
        }
        for name, d in measures
    ]


def _percentages(report: QualityReport) -> dict[str, str]:
    """The report's shares as percentages, keyed by what they measure."""
    out = {"repeating": _pct(report.repetition.sentences_repeating_share)}
    if report.frequency is not None:
        f = report.frequency
        out |= {
            "good_more": _pct(f.good_more_frequent_share),
            "bad_more": _pct(f.bad_more_frequent_share),
            "unigram_good": _pct(f.unigram_prefers_good_share),
            "unigram_bad": _pct(f.unigram_prefers_bad_share),
        }
    if report.tokenizer is not None:
        t = report.tokenizer
        out |= {
            "oov_types": _pct(t.oov_type_rate),
            "oov_tokens": _pct(t.oov_token_rate),
            "unknown_types": _pct(t.unknown_type_rate),
            "unknown_tokens": _pct(t.unknown_token_rate),
        }
    return out
