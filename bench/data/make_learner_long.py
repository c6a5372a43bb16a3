"""Write `learner_long.tsv` (and its `.meta.tsv`): about 300 learner-length sentence pairs for
`bench/triplets.py --corpus bench/data/learner_long.tsv`.

Every sentence here is made up for this benchmark (no corpus was copied): hand-written clauses
of essays, stories and letters, each with a few marked places where a learner typically goes
wrong, are joined (an opener, two clauses and a connective, sometimes a closing phrase) into
sentences of about 24 words, the length of learner essay sentences, and one to three of the
marked places are turned into the learner's error: a wrong preposition, a missing or extra
article, a wrong tense or verb form, subject-verb agreement, noun number, a spelling slip or a
missing comma. The corrected sentence takes the right form everywhere.

A place is written `{right|wrong}`; `_` stands for no word ("{an|_} engineer": the article is
missing in the learner's sentence, "{_|the} nature": an extra one). Seeded: the same file every
run. Run: python bench/data/make_learner_long.py
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

SEED = 24
PAIRS = 300
SENTENCES_PER_ESSAY = 10
HERE = Path(__file__).resolve().parent

# A topic: its openers (sentence starts, written with their comma), clauses (independent
# clauses, starting lower case unless they start with "I") and closing phrases.
TOPICS: dict[str, dict[str, list[str]]] = {
    "technology in our lives": {
        "openers": [
            "In my opinion{,|_}",
            "Nowadays{,|_}",
            "{On|In} the other hand{,|_}",
            "These days{,|_}",
            "To be honest{,|_}",
        ],
        "clauses": [
            "many young people {spend|spends} too much time {on|in} their phones",
            "my younger brother {plays|play} computer games until late {at|in} night",
            "it is easy to find {information|informations} about almost anything on {the|_} internet",
            "{_|the} social networks have changed the way we {communicate|communicates} with our friends",
            "I {have|has} used a smartphone since I was twelve years {old|olds}",
            "my parents {did|do} not have {a|_} computer when they were at school",
            "people {are|is} always looking at {their|theirs} screens on the bus",
            "technology can {help|helps} students {to|_} learn faster {than|then} before",
            "a lot of {people|peoples} buy everything online instead of going to {the|_} shops",
            "I usually {read|reads} the news on my tablet before I go {to|_} work",
            "{the|_} older people sometimes find it difficult to use new {devices|device}",
            "my grandmother {learned|learn} to send {messages|message} to her grandchildren last year",
        ],
        "tails": [
            "and this is not always good for {their|there} health",
            "{which|wich} is a big problem {for|to} many families",
            "even when {they|it} are with {their|_} families",
            "because it is {cheaper|more cheap} and faster",
        ],
    },
    "the environment": {
        "openers": [
            "In my opinion{,|_}",
            "First of all{,|_}",
            "{In|On} my country{,|_}",
            "Unfortunately{,|_}",
            "{For|To} example{,|_}",
        ],
        "clauses": [
            "the government should do more to protect {the|_} environment",
            "{_|the} pollution in big cities {is|are} getting worse every year",
            "people should use public transport instead {of|_} driving their own {cars|car}",
            "we {throw|throws} away too much plastic and {food|foods} every day",
            "many {animals|animal} are losing their homes because of {_|the} climate change",
            "my school {started|start} a recycling project {in|on} the spring",
            "I {try|tries} to save water and {energy|energies} at home",
            "the river near my village {was|were} very clean when I was a child",
            "{the|_} factories should pay {for|_} the damage they cause",
            "every family {can|cans} plant a tree or grow some {vegetables|vegetable}",
            "the weather {has|have} become {more|much} unpredictable in the last ten years",
            "young people {are|is} more worried about the future than {their|they} parents",
        ],
        "tails": [
            "if we want to live {in|on} a healthy world",
            "and {everybody|every body} can help a little",
            "{because|becouse} our children will pay for our mistakes",
            "so it is {a|_} problem for all of us",
        ],
    },
    "my last holiday": {
        "openers": [
            "Last summer{,|_}",
            "{On|In} the first day{,|_}",
            "After a long journey{,|_}",
            "{In|At} the end{,|_}",
            "Two years ago{,|_}",
        ],
        "clauses": [
            "my family and I {went|go} to a small town by the sea",
            "we {stayed|stay} in a hotel {near|near to} the beach for two weeks",
            "the weather {was|were} sunny and warm {during|for} the whole week",
            "I {visited|visit} a museum {with|_} my cousin and her {friends|friend}",
            "we {ate|eat} fresh fish {in|at} a restaurant next to the harbour",
            "my father {lost|losed} his wallet {on|in} the train",
            "the people {were|was} very friendly and {helpful|helpfull} to us",
            "I {took|taked} a lot of {photos|photo} of the old buildings",
            "we {had|have} to wait {for|_} three hours at the airport",
            "my sister {was|were} afraid of swimming {in|at} the sea",
            "we {decided|decide} to climb {the|_} mountain behind the village",
            "I {bought|buyed} some {presents|present} for my friends at home",
        ],
        "tails": [
            "and it was the best holiday {of|in} my life",
            "{although|althought} it was quite expensive",
            "before we {went|go} back home",
            "so we were very tired {in|at} the evening",
        ],
    },
    "a letter to a friend": {
        "openers": [
            "As you know{,|_}",
            "By the way{,|_}",
            "Anyway{,|_}",
            "{At|In} the moment{,|_}",
            "Next month{,|_}",
        ],
        "clauses": [
            "I {am|is} writing to tell you about my new job",
            "I {have|am} been very busy since I moved {to|in} London",
            "my new flat {is|are} small but {it|_} is very comfortable",
            "I {would|will} like to invite you to my birthday party",
            "you {can|could to} stay with us {for|during} a few days",
            "my brother {is|are} going to get married {in|on} June",
            "I {met|meet} an old friend from school {at|in} the supermarket",
            "we {should|shall} meet {at|in} the station on Saturday morning",
            "I {was|am} very happy to {receive|recieve} your last letter",
            "my parents {send|sends} you their best {wishes|wish}",
            "I {have|had} not seen you {for|since} a very long time",
            "we {could|can} go to the cinema or have {a|_} dinner together",
        ],
        "tails": [
            "so please write {to|_} me soon",
            "and I hope that you are {well|good}",
            "because I miss you {a lot|alot}",
            "if you {have|has} some free time",
        ],
    },
    "studying at university": {
        "openers": [
            "When I was younger{,|_}",
            "In my experience{,|_}",
            "{For|To} me{,|_}",
            "At the beginning{,|_}",
            "Of course{,|_}",
        ],
        "clauses": [
            "I {wanted|want} to study medicine {at|in} a big university",
            "students {need|needs} to read a lot of {books|book} every week",
            "the {teachers|teacher} at my school {were|was} very strict",
            "I {am|am be} interested {in|on} learning foreign languages",
            "my best friend {failed|fail} his exams {because|because of} he was ill",
            "it is important {to|_} choose a subject that you really like",
            "the exams {are|is} usually {in|at} the end of the year",
            "I {spent|spend} most of my {evenings|evening} in the library last year",
            "many students {have|has} to work {in|at} the weekends to pay their fees",
            "our professor {explained|explain} the {lesson|lessons} very clearly",
            "I {did|do} not understand {the|_} mathematics when I was at school",
            "{the|_} university life is very different {from|of} life at school",
        ],
        "tails": [
            "and it {was|is} not easy at first",
            "{because|becuase} they want to get a good job",
            "{which|who} helped me a lot",
            "so I {had|have} to study very hard",
        ],
    },
    "life in the city": {
        "openers": [
            "In my opinion{,|_}",
            "On the one hand{,|_}",
            "{In|On} the evening{,|_}",
            "Compared {to|with} the countryside{,|_}",
            "Every morning{,|_}",
        ],
        "clauses": [
            "living in a big city {is|are} more expensive than living in a village",
            "there {are|is} many {opportunities|opportunity} to find a good job",
            "the traffic {is|are} terrible {during|in} the rush hour",
            "I {take|takes} the bus to work {at|in} seven o'clock",
            "my neighbours {make|makes} a lot of {noise|noises} at night",
            "people {do|does} not know their neighbours {in|on} big cities",
            "there {is|are} always something interesting to do {at|in} the weekend",
            "the rent {has|have} gone up {by|with} twenty percent this year",
            "it {is|is being} difficult to find a quiet place to {relax|relaxing}",
            "my cousin {moved|move} to the capital {to|for} find a better job",
            "the parks {are|is} full of {families|family} on sunny days",
            "I {prefer|prefers} to live {in|at} a small town near the mountains",
        ],
        "tails": [
            "and {the|_} life is more exciting",
            "but it is not {easy|easily} for everybody",
            "{because|becouse} there are so many people",
            "{which|what} makes me feel tired",
        ],
    },
    "sport and health": {
        "openers": [
            "In my free time{,|_}",
            "Three times a week{,|_}",
            "{In|On} my opinion{,|_}",
            "When I was a child{,|_}",
            "Last year{,|_}",
        ],
        "clauses": [
            "I {go|goes} swimming with my friends {at|in} the local pool",
            "doctors {say|says} that we should do some exercise every day",
            "my father {plays|play} football {with|_} his colleagues after work",
            "I {joined|join} a running club {in|at} my neighbourhood",
            "eating too {much|many} sugar is bad {for|to} your health",
            "children {should|should to} spend more time {playing|play} outside",
            "my sister {has|have} been learning to dance {for|since} three years",
            "I {broke|broken} my leg {during|while} a basketball match",
            "many people {go|goes} to the gym before they go {to|_} work",
            "our team {won|winned} the final match {against|to} the best school",
            "I {feel|feels} much better when I sleep {for|_} eight hours",
            "{the|_} fast food is very popular {among|between} teenagers",
        ],
        "tails": [
            "and it {makes|make} me feel relaxed",
            "{because|becouse} it is good for the body and the mind",
            "{although|althought} I do not have much time",
            "so I {want|wants} to keep doing it",
        ],
    },
    "a job application": {
        "openers": [
            "Dear Sir or Madam{,|_}",
            "{In|On} addition{,|_}",
            "{As|Like} you can see from my CV{,|_}",
            "At present{,|_}",
            "Moreover{,|_}",
        ],
        "clauses": [
            "I am writing to apply {for|to} the job you advertised {in|on} the newspaper",
            "I {have|has} worked as a waiter {for|since} two years",
            "I {am|am be} a friendly and {hard-working|hard-worker} person",
            "I {can|can to} speak English and French {fluently|fluent}",
            "my last job {was|were} {in|on} a hotel in the city centre",
            "I {would|will} be grateful if you {could|can} send me more {information|informations}",
            "I {am|be} available {for|to} an interview at any time",
            "I {enjoy|enjoys} working with {people|peoples} from different countries",
            "my manager {said|say} that I {was|am} very reliable",
            "I {studied|study} tourism {at|in} college for three years",
            "I {have|have got} experience {of|in} dealing with difficult customers",
            "I {look|looking} forward to hearing {from|of} you",
        ],
        "tails": [
            "and I {think|thinked} I would be {suitable|suitible} for this job",
            "{which|who} is why I am applying",
            "because I {want|wants} to improve my skills",
            "in the {near|nearly} future",
        ],
    },
}

CONNECTIVES = ["and", "but", "because", "so", "and then", "while", "since", "and also"]
L1S = [
    "Spanish",
    "Chinese",
    "Arabic",
    "Russian",
    "Italian",
    "Japanese",
    "Portuguese",
    "Turkish",
    "Polish",
    "German",
]
LEVELS = ["A2", "B1", "B1", "B2", "B2", "C1"]

_PLACE = re.compile(r"\{([^|{}]*)\|([^|{}]*)\}")


def places(text: str) -> int:
    """Return how many marked places the text has."""
    return len(_PLACE.findall(text))


def render(text: str, wrong: set[int]) -> str:
    """Return the text with the places numbered in `wrong` (in order of appearance) written as
    the learner's error and the others as the correction."""
    counter = iter(range(10_000))

    def choose(match: re.Match[str]) -> str:
        right, bad = match.group(1), match.group(2)
        word = bad if next(counter) in wrong else right
        return "" if word == "_" else word

    out = _PLACE.sub(choose, text)
    out = re.sub(r" {2,}", " ", out).strip()
    out = re.sub(r" ,", ",", out)
    return out[:1].upper() + out[1:]


def sentence(rng: random.Random, topic: dict[str, list[str]]) -> str:
    """Return one marked sentence of the topic: an opener or not, two clauses joined by a
    connective (or "Although ..., ..."), sometimes a closing phrase."""
    first, second = rng.sample(topic["clauses"], 2)
    shape = rng.random()
    tail = " " + rng.choice(topic["tails"]) if rng.random() < 0.45 else ""
    if shape < 0.15:
        return f"Although {first}, {second}{tail}."
    opener = rng.choice(topic["openers"]) + " " if shape < 0.7 else ""
    connective = rng.choice(CONNECTIVES)
    if connective in {"because", "since", "while"}:
        tail = ""  # one subordinate clause is enough
    return f"{opener}{first} {connective} {second}{tail}."


def main() -> None:
    rng = random.Random(SEED)
    names = list(TOPICS)
    rows: list[tuple[str, str, str, str]] = []
    meta: list[tuple[str, ...]] = []
    seen: set[str] = set()
    essay = 0
    while len(rows) < PAIRS:
        essay += 1
        topic_name = names[(essay - 1) % len(names)]
        topic = TOPICS[topic_name]
        essay_id = f"long-e{essay:02d}"
        meta.append(
            (essay_id, f"long-l{essay:02d}", rng.choice(L1S), rng.choice(LEVELS), topic_name, "mpp-long")
        )
        made = 0
        while made < SENTENCES_PER_ESSAY and len(rows) < PAIRS:
            marked = sentence(rng, topic)
            count = places(marked)
            errors = min(count, rng.choices([1, 2, 3], weights=[45, 35, 20])[0])
            wrong = set(rng.sample(range(count), errors))
            learner, corrected = render(marked, wrong), render(marked, set())
            if learner in seen or learner == corrected:
                continue
            seen.add(learner)
            made += 1
            rows.append((f"{essay_id}-s{made:02d}", essay_id, learner, corrected))
    with (HERE / "learner_long.tsv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, delimiter="\t", lineterminator="\n")
        writer.writerow(("sentence_id", "essay_id", "learner", "corrected"))
        writer.writerows(rows)
    with (HERE / "learner_long.meta.tsv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, delimiter="\t", lineterminator="\n")
        writer.writerow(("essay_id", "learner_id", "L1", "cefr", "topic", "corpus"))
        writer.writerows(meta)


if __name__ == "__main__":
    main()
