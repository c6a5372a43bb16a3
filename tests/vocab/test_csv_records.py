"""The one reader of CSV records with their lines (vocab.csv_records), which the vocabulary
table reader and the BLiMP vocabulary import both use."""

from vocab.csv_records import CsvProblem, CsvRecord, csv_records


def test_records_carry_the_lines_they_span() -> None:
    text = 'id,word\n1,"two\nlines"\n\n2,cat\n'
    records, problem = csv_records(text)
    assert problem is None
    assert records == [
        CsvRecord(1, 1, ("id", "word")),
        CsvRecord(2, 3, ("1", "two\nlines")),
        CsvRecord(4, 4, ()),
        CsvRecord(5, 5, ("2", "cat")),
    ]


def test_tabs_and_the_first_unreadable_record_stop_the_reading() -> None:
    records, problem = csv_records("id\tword\n1\tdog\n", "\t")
    assert [r.cells for r in records] == [("id", "word"), ("1", "dog")] and problem is None
    huge = "x" * 200_000  # over the csv module's field limit
    records, problem = csv_records(f"id,word\n1,dog\n2,{huge}\n3,cow\n")
    assert [r.cells for r in records] == [("id", "word"), ("1", "dog")]
    assert isinstance(problem, CsvProblem) and problem.line == 3
