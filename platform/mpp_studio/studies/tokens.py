"""The participant's signed token: bound to one study and one participation, salted for this
purpose only (a token of any other Django signer never passes), and dated (older than
`TOKEN_MAX_AGE` is expired). It travels in the trial page's URL and in a cookie, so a reload or
a closed tab resumes; every participant endpoint reads the participation from it and from
nothing else.
"""

from django.core import signing

from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.services import ParticipantProblem

TOKEN_SALT = "mpp_studio.studies.participant-token"
TOKEN_MAX_AGE = 60 * 60 * 24 * 30  # seconds: a participant may come back within a month


def cookie_name(study: Study) -> str:
    """Return the name of the cookie that holds a participant's token for this study."""
    return f"mpp_study_{study.pk}"


def participant_token(participation: Participation) -> str:
    """Return the signed token of a participation."""
    payload = {"s": participation.study_id, "p": participation.pk, "t": participation.token_id}
    return signing.dumps(payload, salt=TOKEN_SALT, compress=True)


def participation_from_token(*, study: Study, token: str) -> Participation:
    """Return the participation a token names, if it belongs to `study`.

    Raises:
        ParticipantProblem: "bad_link" (403) when the token is damaged, expired, signed for
            something else, or names a participation that does not exist; "wrong_participant"
            (403) when it belongs to another study.
    """
    try:
        payload = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        raise ParticipantProblem("bad_link", 403) from None
    if not isinstance(payload, dict):
        raise ParticipantProblem("bad_link", 403)
    if payload.get("s") != study.pk:
        raise ParticipantProblem("wrong_participant", 403)
    participation = Participation.objects.filter(  # type: ignore[misc]  # a missing "p" matches none
        pk=payload.get("p"), study=study, token_id=str(payload.get("t"))
    ).first()
    if participation is None:
        raise ParticipantProblem("bad_link", 403)
    return participation
