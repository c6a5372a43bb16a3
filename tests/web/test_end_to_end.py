"""A first-time linguist's whole journey, in a real browser (Debian's Chromium, driven by Playwright).

Sign up and create a project; import a vocabulary (a bad file first, refused with its line
numbers, then a good one) and filter it; write a phrase; build a paradigm from scratch in the
template editor with every rule type while the live preview follows; save it; generate a dataset
on a real Celery worker and watch its progress; browse the pairs and a provenance; export JSONL.

Nothing is prepared behind the browser's back: the web server (`manage.py runserver`; the
embedded default serves the same pages with gunicorn) and the worker run as separate processes
on a fresh SQLite file and the embedded filesystem queue in a temporary MPP_VAR_DIR. Screenshots
of every step go to `var/screenshots/e2e-<n>-<step>.png` for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, screenshot_folder
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import web_server, worker
from tests.web.paradigms.editor_browser import (
    add_position,
    choose,
    click,
    feature,
    set_rule,
    settle,
    type_into,
)

pytestmark = needs_chromium

USERNAME = "mara"
PASSWORD = "quartz-heron-5-lagoon"
UID = "demonstrative_noun_agreement"
N_PAIRS = 50
SEED = 11

# Line 3 has no form, line 5 one cell too many, line 6 repeats the id of line 4.
BAD_CSV = """\
id,form,lemma,pos,number
d1,this,this,DT,sg
n1,,cat,NN,sg
n2,cats,cat,NN,pl
n3,dogs,dog,NN,pl,x
n2,dog,dog,NN,sg
"""
# Determiners and nouns with their number; verbs as lemmas (the template inflects them).
GOOD_CSV = """\
id,form,lemma,pos,number
d1,this,this,DT,sg
d2,these,these,DT,pl
d3,that,that,DT,sg
d4,those,those,DT,pl
n1,cat,cat,NN,sg
n2,cats,cat,NN,pl
n3,dog,dog,NN,sg
n4,dogs,dog,NN,pl
n5,bird,bird,NN,sg
n6,birds,bird,NN,pl
n7,horse,horse,NN,sg
n8,horses,horse,NN,pl
v1,sleep,sleep,VB,
v2,run,run,VB,
v3,jump,jump,VB,
v4,swim,swim,VB,
"""
# A noun phrase: a determiner agreeing in number with its noun, the head.
NP_PHRASE = "- [{id: det, matched: head, on: number, lexical: {pos: DT}}, {id: head, lexical: {pos: NN}}]\n"


@pytest.fixture
def page() -> Iterator[Page]:
    with launch_browser() as browser:
        page = new_page(browser, width=1440, height=1000, accept_downloads=True)
        yield page
        page.context.close()


class Shots:
    """Numbered full-page screenshots: var/screenshots/e2e-<n>-<step>.png."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.folder = screenshot_folder()
        for old in self.folder.glob("e2e-*.png"):
            old.unlink()
        self.count = 0

    def __call__(self, step: str, *, full_page: bool = True) -> None:
        """Save the whole page from the top, or (full_page=False) what the window shows now."""
        self.count += 1
        if full_page:
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=self.folder / f"e2e-{self.count:02d}-{step}.png", full_page=full_page)


def test_end_to_end_first_time_linguist_builds_and_exports_a_benchmark(page: Page, tmp_path: Path) -> None:
    env = subprocess_env(tmp_path / "var")
    run_manage(env, "migrate", "--noinput")
    web_log = tmp_path / "web.log"
    with worker(env, tmp_path / "worker.log", "cpu,gpu") as worker_log, web_server(env, web_log) as base:
        try:
            journey(page, base, Shots(page), tmp_path)
        except AssertionError as exc:
            raise AssertionError(
                f"{exc}\n--- web server log:\n{web_log.read_text(errors='replace')[-6000:]}"
                f"\n--- worker log:\n{worker_log()[-6000:]}"
            ) from exc


def journey(page: Page, base: str, shot: Shots, tmp_path: Path) -> None:
    project_id = sign_up_and_create_project(page, base, shot)
    import_vocabulary(page, shot, tmp_path)
    write_phrase(page, shot)
    build_template(page, shot)
    generate_dataset(page, shot)
    expect(page).to_have_url(re.compile(rf"^{re.escape(base)}/projects/{project_id}/datasets/\d+/$"))
    check_export(browse_and_export(page, shot, tmp_path))


def sign_up_and_create_project(page: Page, base: str, shot: Shots) -> int:
    """1. The front page asks to sign in; a new account, then a new project."""
    page.goto(base + "/")
    expect(page.locator("h1")).to_have_text("Sign in")
    page.click("a:has-text('Create an account')")
    expect(page.locator("h1")).to_have_text("Create an account")
    page.fill("#id_username", USERNAME)
    page.fill("#id_email", f"{USERNAME}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    shot("signup")
    page.click("button:has-text('Create account')")
    expect(page).to_have_url(base + "/")
    expect(page.locator("h2")).to_have_text("No projects yet")

    page.click("a.button:has-text('New project')")
    page.fill("#id_name", "Determiner agreement")
    page.fill("#id_description", "Demonstratives agree in number with their noun.")
    shot("new-project")
    page.click("button:has-text('Create project')")
    expect(page).to_have_url(re.compile(r"/projects/\d+/"))
    expect(page.locator("h1.project-name")).to_have_text("Determiner agreement")
    expect(page.locator(".project-title .role-badge")).to_have_text("Owner")
    return int(re.search(r"/projects/(\d+)/", page.url).group(1))  # type: ignore[union-attr]


def import_vocabulary(page: Page, shot: Shots, tmp_path: Path) -> None:
    """2. A bad table is refused by line and nothing is stored; the good one imports and filters."""
    bad = tmp_path / "bad" / "english.csv"
    bad.parent.mkdir()
    bad.write_text(BAD_CSV, encoding="utf-8")
    good = tmp_path / "english.csv"
    good.write_text(GOOD_CSV, encoding="utf-8")

    page.click("a.project-tab[data-tab=vocabularies]")
    expect(page.locator(".lexicon h2")).to_have_text("Vocabularies")
    expect(page.locator("tr.vocabulary")).to_have_count(0)
    page.click("a.button:has-text('Import CSV/TSV')")
    page.set_input_files("#id_file", str(bad))
    page.fill("#id_name", "english")
    page.fill("#id_language", "en")
    page.click("button:has-text('Import')")
    # The page answers at once and follows the import job (the worker reads the file).
    expect(page.locator(".messages")).to_contain_text("english.csv is being imported")
    expect(page.locator("#import-problems h3")).to_have_text("The file was not imported: 3 problems")
    problems = page.locator("tr.import-problem")
    expect(problems).to_have_count(3)
    assert problems.locator("td.line").all_inner_texts() == ["3", "5", "6"]
    expect(problems.nth(0)).to_contain_text("the form is empty")
    expect(problems.nth(1)).to_contain_text("this row has 6 cells but the header has 5 columns")
    expect(problems.nth(2)).to_contain_text("the id 'n2' is already used on line 4")
    shot("import-refused")
    page.click("text=import the file again")
    expect(page.locator("#id_name")).to_have_value("english")
    # Nothing was stored: the list is still empty.
    page.click(".crumbs a:has-text('Vocabularies')")
    expect(page.locator("tr.vocabulary")).to_have_count(0)
    expect(page.locator(".card.empty")).to_contain_text("This project has no vocabularies yet.")

    page.click("a.button:has-text('Import CSV/TSV')")
    page.set_input_files("#id_file", str(good))
    page.fill("#id_name", "english")
    page.fill("#id_language", "en")
    page.click("button:has-text('Import')")
    expect(page.locator(".job-status")).to_contain_text("Imported “english”: 16 items.")
    page.locator("#import-summary").locator("text=Open the vocabulary").click()
    expect(page.locator(".vocab-title h2")).to_have_text("english")
    expect(page.locator("tr.item")).to_have_count(16)
    shot("vocabulary")
    page.select_option("select[name='f-number']", "pl")
    expect(page.locator("tr.item")).to_have_count(6)
    expect(page).to_have_url(re.compile(r"f-number=pl"))
    expect(page.locator(".table-count")).to_contain_text("6 of 16 items match.")
    plural = ["these", "those", "cats", "dogs", "birds", "horses"]
    forms = page.locator("tr.item td.form input")  # an editor edits the cells in place
    assert [forms.nth(i).input_value() for i in range(forms.count())] == plural
    shot("vocabulary-filtered")


def write_phrase(page: Page, shot: Shots) -> None:
    """3. A noun phrase on the phrases page."""
    page.click("a.project-tab[data-tab=phrases]")
    expect(page.locator("h2")).to_have_text("Phrases")
    page.click("a.button:has-text('New phrase')")
    page.fill("#id_name", "NP")
    page.fill("#id_text", NP_PHRASE)
    page.fill("#id_description", "A determiner agreeing with its noun.")
    page.click("button:has-text('Create phrase')")
    expect(page.locator("h2")).to_contain_text("Phrase NP")
    expect(page.locator(".meta").first).to_contain_text("1 alternative")
    shot("phrase")
    page.click(".crumbs a:has-text('Phrases')")
    expect(page.locator("tr.phrase-row")).to_have_count(1)
    expect(page.locator("tr.phrase-row .used-by")).to_contain_text("no template")


def build_template(page: Page, shot: Shots) -> None:
    """4. A paradigm from scratch: every rule, the preview following, an error shown and fixed."""
    page.click("a.project-tab[data-tab=templates]")
    page.click("a:has-text('New template')")
    expect(page.locator("h2.editor-title")).to_have_text("New template")
    expect(page.locator("#vocabulary")).to_have_value("english")
    settle(page)
    type_into(page, "#uid", UID)
    type_into(page, "#phenomenon", "determiner_noun_agreement")
    type_into(page, "#description", "A demonstrative agrees in number with its noun.")
    type_into(page, "#example_good", "These dogs sleep near the cat today.")
    type_into(page, "#example_bad", "This dogs sleeps near the cat.")

    # The good grammar starts with det (Matched) and noun (Lexical); the bad one's first row is
    # still an empty Same, and the preview says so.
    set_rule(page, "good", 0, "matched")
    type_into(page, "#good-0-id", "det")
    feature(page, "good", 0, 0, "pos", "DT")
    assert add_position(page, "good") == 1
    type_into(page, "#good-1-id", "noun")
    feature(page, "good", 1, 0, "pos", "NN")
    feature(page, "good", 1, 1, "number", "pl")
    choose(page, "#good-0-target", "noun")
    type_into(page, "#good-0-on", "number")
    pairs = page.locator("#preview tr.pair")
    expect(page.locator("#preview .problem-list")).to_contain_text("bad grammar, position 1")
    expect(pairs).to_have_count(0)
    shot("editor-start")

    # Bad: a copy of the good grammar (Same), then the mismatched determiner: pairs appear.
    click(page, "button[value='bad-from-good']")
    expect(page.locator("#editor-body .grammar-bad li.position")).to_have_count(2)
    set_rule(page, "bad", 0, "mismatched")
    type_into(page, "#bad-0-id", "det_bad")
    choose(page, "#bad-0-target", "noun")
    type_into(page, "#bad-0-on", "number")
    feature(page, "bad", 0, 0, "pos", "DT")
    # these/those x four plural nouns: all 8 different pairs are shown.
    expect(pairs).to_have_count(8)
    expect(page.locator("#preview .capacity")).to_contain_text("8")
    for row in pairs.all():
        good, bad = row.locator("td.good").inner_text(), row.locator("td.bad").inner_text()
        assert re.fullmatch(r"(These|Those) (cats|dogs|birds|horses)", good), good
        assert re.fullmatch(r"(This|That) (cats|dogs|birds|horses)", bad), bad
    shot("editor-first-pairs")

    # The rest of the good sentence: verb (Lexical, form VBP), prep (Direct), place (Phrase),
    # adv and stop (Direct).
    assert add_position(page, "good") == 2
    type_into(page, "#good-2-id", "verb")
    feature(page, "good", 2, 0, "pos", "VB")
    choose(page, "#good-2-form", "VBP")
    assert add_position(page, "good") == 3
    set_rule(page, "good", 3, "direct")
    type_into(page, "#good-3-id", "prep")
    type_into(page, "#good-3-words", "near | behind")
    assert add_position(page, "good") == 4
    set_rule(page, "good", 4, "phrase")
    type_into(page, "#good-4-id", "place")
    choose(page, "#good-4-phrase", "NP")
    for row, (pid, words) in enumerate((("adv", "today | again"), ("stop", ".")), start=5):
        assert add_position(page, "good") == row
        set_rule(page, "good", row, "direct")
        type_into(page, f"#good-{row}-id", pid)
        type_into(page, f"#good-{row}-words", words)

    # ... and of the bad one: the verb re-inflected in place (Same with a form), the adverb deleted.
    for row, target in enumerate(("verb", "prep", "place", "adv", "stop"), start=2):
        assert add_position(page, "bad") == row
        choose(page, f"#bad-{row}-target", target)
    choose(page, "#bad-2-form", "VBZ")
    set_rule(page, "bad", 5, "delete")
    expect(page.locator("#bad-5-target")).to_have_value("adv")
    expect(page.locator("#bad-4-type")).to_have_value("same")

    expect(pairs).to_have_count(10)
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")
    expect(page.locator("#preview tr.pair td.good mark").first).to_be_visible()
    expect(page.locator("#preview tr.pair td.edit").first).to_have_text(
        "substitution, substitution, deletion"
    )
    for row in pairs.all():
        good, bad = row.locator("td.good").inner_text(), row.locator("td.bad").inner_text()
        assert re.fullmatch(r"(These|Those) \w+ \w+ (near|behind) \w+ \w+ (today|again)\.", good), good
        assert re.fullmatch(r"(This|That) \w+ \w+s (near|behind) \w+ \w+\.", bad), bad
    shot("editor-built")

    # A wrong value: its error sits beside the noun's row and the pairs go; fixed, they return.
    type_into(page, "#good-1-feat-1-value", "plural")
    noun_problems = page.locator("#problems-good-1")
    expect(noun_problems).to_contain_text("E_UNKNOWN_VALUE")
    expect(noun_problems).to_contain_text("plural")
    expect(pairs).to_have_count(0)
    expect(page.locator("#preview .problem-list")).to_contain_text("good grammar, position 2 (noun)")
    shot("editor-error")
    type_into(page, "#good-1-feat-1-value", "pl")
    expect(noun_problems).to_be_empty()
    expect(pairs).to_have_count(10)

    page.fill("#note", "first version, built in the editor")
    page.click("button.save")
    expect(page.locator(".message.success")).to_contain_text(f"Saved version 1 of {UID}")
    expect(page.locator(".version-badge")).to_have_text("version 1 (latest)")
    expect(page.locator("tr.pair")).to_have_count(10)
    shot("template-saved")


def generate_dataset(page: Page, shot: Shots) -> None:
    """5. A dataset of the new paradigm; its progress bar reaches done (a real worker)."""
    page.click("a.project-tab[data-tab=datasets]")
    expect(page.locator(".empty")).to_contain_text("No datasets yet.")
    page.click("a.button:has-text('New dataset')")
    expect(page.locator("h2")).to_have_text("New dataset")
    page.fill("#id_name", "Demonstratives")
    page.check(f"li.choice:has(code.uid:text-is('{UID}')) input")
    page.fill("#id_pairs_per_paradigm", str(N_PAIRS))
    page.fill("#id_seed", str(SEED))
    shot("dataset-new")
    page.click("button:has-text('Generate dataset')")
    expect(page.locator("h2.dataset-title")).to_have_text("Demonstratives")
    # Record every value the progress bar shows while htmx polls the job (every 2 s).
    page.evaluate(
        """() => {
            window.progressSeen = [];
            window.progressTimer = setInterval(() => {
                const bar = document.querySelector('.job-status [role=progressbar]');
                if (bar) window.progressSeen.push(Number(bar.getAttribute('aria-valuenow')));
            }, 50);
        }"""
    )
    shot("dataset-progress")
    expect(page.locator(".job-status[data-status=done]")).to_be_visible(timeout=90_000)
    # The timer samples every 50 ms, so its last sample can predate the final swap: take one more.
    seen = page.evaluate(
        """() => {
            clearInterval(window.progressTimer);
            const bar = document.querySelector('.job-status [role=progressbar]');
            if (bar) window.progressSeen.push(Number(bar.getAttribute('aria-valuenow')));
            return window.progressSeen;
        }"""
    )
    assert seen and seen[-1] == 100, seen
    assert seen == sorted(seen), f"the progress bar went backwards: {seen}"
    expect(page.locator(".job-status .progress-bar")).to_have_attribute("style", "width: 100%")
    expect(page.locator(".job-status")).to_contain_text(f"Generated {N_PAIRS} pairs in 1 paradigm")
    row = page.locator(f"tr.paradigm-row[data-uid={UID}]")
    expect(row.locator(".paradigm-badge-done")).to_be_visible()
    expect(row).to_contain_text("version 1")
    shot("dataset-done")


def browse_and_export(page: Page, shot: Shots, tmp_path: Path) -> list[dict[str, object]]:
    """6. The pairs, one pair's provenance, then the JSONL export (a real download)."""
    template_hash = page.locator(f"tr.paradigm-row[data-uid={UID}] td:nth-child(2) .hash").inner_text()
    vocabulary_hash = page.locator(f"tr.paradigm-row[data-uid={UID}] td:nth-child(3) .hash").inner_text()
    page.click("a.button:has-text('Browse pairs')")
    rows = page.locator("tr.pair")
    expect(rows).to_have_count(N_PAIRS)
    expect(rows.first.locator("td.sentence.good mark").first).to_be_visible()
    shot("pairs")
    third = rows.nth(2)
    good_text = third.locator("td.sentence.good").inner_text()
    third.locator("a.provenance-link").click()
    provenance = page.locator(".provenance").first
    expect(provenance).to_be_visible()
    expect(provenance).to_contain_text(f"{UID}, version 1")
    expect(provenance).to_contain_text(template_hash)
    expect(provenance).to_contain_text(vocabulary_hash)
    expect(provenance.locator("dt:text-is('Seed') + dd")).to_have_text(str(SEED))
    expect(provenance.locator("tr.filler-good")).not_to_have_count(0)
    third.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -120)")
    shot("provenance", full_page=False)

    page.click(".crumbs a:has-text('Demonstratives')")
    expect(page.locator("h2.dataset-title")).to_have_text("Demonstratives")
    with page.expect_download() as download_info:
        page.click("a[data-format=jsonl]")
    download = download_info.value
    assert download.suggested_filename == "demonstratives.jsonl"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    lines = target.read_bytes().splitlines()
    assert len(lines) == N_PAIRS
    records = [orjson.loads(line) for line in lines]
    assert all(isinstance(record, dict) for record in records)
    assert records[2]["sentence_good"] == good_text
    for record in records:
        assert record["provenance"]["template_version"] == template_hash
        assert record["provenance"]["vocabulary_version"] == vocabulary_hash
    return records


def check_export(records: list[dict[str, object]]) -> None:
    """The JSONL holds N records of the paradigm, each a real minimal pair with its provenance."""
    assert len(records) == N_PAIRS
    assert len({record["item_id"] for record in records}) == N_PAIRS
    for record in records:
        assert record["UID"] == UID
        assert record["sentence_good"] != record["sentence_bad"]
        assert record["critical_region"], record
        provenance = record["provenance"]
        assert isinstance(provenance, dict)
        assert provenance["template"] == UID
        assert provenance["seed"] == SEED
        assert provenance["vocabulary"] == "english"
        assert provenance["template_version"] and provenance["vocabulary_version"]
