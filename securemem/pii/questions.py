"""Answers to an account's security questions, which unlock it as a password does (reviewers CF and CG: "security Q&A:
mother's maiden name = Kowalczyk; first pet = Mochi", "security question 'first pet' = Rocky", "pregunta de
seguridad «ciudad de nacimiento de su madre»: Cáceres").

An answer is read after a question that names itself one ("security question", "pregunta de seguridad",
"Sicherheitsfrage"...) and the question itself quoted or in brackets, then ":" or "="; or after one of the questions
banks and portals ask (a mother's maiden name, a first pet, a city of birth...) with "=", where the text
speaks of security, recovery or verification. (A label and a colon alone introduce a form's help, a setting or a
status as often: "Security question: Choose one below", "Favorite color: Deprecated", "City of birth: Enter as
shown on passport", an attacker's round.) The answer is one word, or up to three where the next are capitalised
("New York"); a mask or a placeholder is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, index_words

_LABELS = (
    r"security[ \t]++(?:question|q&a|q/a|answer)s?|secret[ \t]++(?:question|answer)s?|security[ \t]++q"
    r"|pregunta(?:s)?[ \t]++(?:de[ \t]++seguridad|secreta)|respuesta[ \t]++(?:de[ \t]++seguridad|secreta)"
    r"|sicherheitsfrage(?:n)?|sicherheitsantwort|question[ \t]++(?:secr[èe]te|de[ \t]++s[ée]curit[ée])"
    r"|r[ée]ponse[ \t]++secr[èe]te|domanda[ \t]++(?:di[ \t]++sicurezza|segreta)"
    r"|pergunta[ \t]++(?:de[ \t]++seguran[çc]a|secreta)"
    r"|beveiligingsvraag|pytanie[ \t]++(?:bezpiecze[ńn]stwa|pomocnicze)|g[üu]venlik[ \t]++sorusu"
)
_QUESTIONS = (
    r"(?:mother['’]?s?|mom['’]?s|mum['’]?s)[ \t]++maiden[ \t]++name|maiden[ \t]++name"
    r"|(?:name[ \t]++of[ \t]++(?:your[ \t]++)?)?first[ \t]++pet(?:['’]?s[ \t]++name)?"
    r"|first[ \t]++(?:school|car|teacher|concert|job)|(?:city|town|place)[ \t]++of[ \t]++birth"
    r"|birth[ \t]*+(?:city|place|town)"
    r"|favou?rite[ \t]++(?:teacher|book|food|colou?r|movie|band|sports?[ \t]++team)"
    r"|childhood[ \t]++(?:best[ \t]++)?friend"
    r"|street[ \t]++you[ \t]++grew[ \t]++up[ \t]++on|(?:father['’]?s|mother['’]?s)[ \t]++middle[ \t]++name"
)
# The quoted question after its label ("security question 'first pet' = Rocky", «ciudad de nacimiento»: ...)
# (quotes of any kind, not brackets: "Security question (optional): Skip." is a form's help, a round of attacks on the
# README's promises)
_QUOTED = r"""[ \t]*+(?:'[^'\n]{1,80}'|"[^"\n]{1,80}"|«[^»\n]{1,80}»|“[^”\n]{1,80}”|‘[^’\n]{1,80}’)"""
_SAID = r"[ \t]*+[:=][ \t]*+"  # (not "is" or a dash: "the security question is optional", "... - pick one")
_ANSWER = (
    # (an apostrophe inside a name: "O'Brien", an attacker's round)
    r"(?P<answer>[^\W\d_](?:[^\s;,.!?\"'»”)\]]|['’](?=[^\W\d_])){0,39}"
    r"(?:[ \t][A-ZÀ-ÖØ-Þ](?:[^\s;,.!?\"'»”)\]]|['’](?=[^\W\d_])){0,39}){0,2})"
    r"(?![^\s;,.!?\"'»”)\]])"
    # ... and it ends its clause ("A: Because banks use it." is a sentence, not an answer: an attacker's round)
    r"(?=[ \t]*+(?:$|[.;,!?)\]\"'»”\r\n]))"
)
_LABELLED = lazy_compile(rf"(?i:(?<![^\W\d_])(?:{_LABELS})){_QUOTED}{_SAID}(?:[\"'«“‘][ \t]*+)?{_ANSWER}")
# A label that names the answer itself, with no question quoted ("security answer: Karabaş60", "güvenlik sorusu cevabı:
# Karabaş60": reviewer CV), then ":" or "=": the answer read as above (one word, or up to three capitalised, ending its
# clause; "Security answer: Enter your answer" or "... Required" give none).
_ANSWER_LABELS = (
    r"security[ \t]++answer|secret[ \t]++answer|sicherheitsantwort|respuesta[ \t]++(?:de[ \t]++seguridad|secreta)"
    r"|r[ée]ponse[ \t]++secr[èe]te|resposta[ \t]++(?:de[ \t]++seguran[çc]a|secreta)"
    r"|risposta[ \t]++(?:di[ \t]++sicurezza|segreta)"
    r"|g[üu]venlik[ \t]++(?:sorusu(?:nun)?[ \t]++)?(?:cevab[ıi]|yan[ıi]t[ıi])|beveiligingsantwoord"
)
_NOT_A_WORD = lazy_compile(r"[0-9!#$%&*+=?@^_~]")
_NAMED_ANSWER = lazy_compile(rf"(?i:(?<![^\W\d_])(?:{_ANSWER_LABELS})){_SAID}(?:[\"'«“‘][ \t]*+)?{_ANSWER}")
_ASKED = lazy_compile(rf"(?i:(?<![^\W\d_])(?:{_QUESTIONS}))[ \t]*+=[ \t]*+(?:[\"'«“‘][ \t]*+)?{_ANSWER}")
# The question asked, then its answer after a word for one ("Security question: What was your first pet's name?
# Answer: Mochi", "Q: What is your mother's maiden name? A: Kowalczyk", "Pregunta de seguridad: ¿...? Respuesta:
# Canela": an attacker's round): after a security question's label, or a question banks ask ending in "?".
_ANSWER_WORDS = r"answer|respuesta|antwort|r[ée]ponse|resposta|risposta|cevap|jawaban|a|答え|答案|답"
# (the answer's word on the question's line or the next: "...maiden name?\nA: Kowalczyk")
_THEN_ANSWER = rf"[ \t]*+(?:\r?\n[ \t]*+)?(?i:{_ANSWER_WORDS})[ \t]*+[:：=][ \t]*+"
_ANSWERED = (
    re.compile(rf"(?i:(?<![^\W\d_])(?:{_LABELS}))[^\n?]{{0,160}}\?{_THEN_ANSWER}{_ANSWER}"),
    re.compile(rf"(?i:(?<![^\W\d_])(?:{_QUESTIONS}))[^\n?]{{0,60}}\?{_THEN_ANSWER}{_ANSWER}"),
)
_QUESTION_NEXT = lazy_compile(rf"(?i:{_QUESTIONS})|[^\n?]{{0,80}}\?")
_SPOKEN_OF = lazy_compile(
    r"(?i:security|secret|recovery|verification|verify|q&a|kba|question|pregunta|sicherheit|s[ée]curit[ée]|sicurezza"
    r"|seguran[çc]a|seguridad|login|portal)"
)
_SPOKEN_REACH = 240  # characters before a question read for what the text speaks of
# Not an answer: a mask, a placeholder, or a word that says none was given
_NO_ANSWER = frozenset(
    {"n/a", "na", "none", "unknown", "redacted", "hidden", "masked", "set", "on", "file", "not", "no", "yes", "tbd",
     "pending", "required", "verified", "correct", "incorrect", "wrong", "ok", "the", "a", "an", "what", "which", "who",
     "where", "your", "my", "his", "her", "their", "enabled", "disabled", "optional", "configured", "reset", "updated",
     "changed", "missing", "blank", "empty", "answered", "skipped", "locked", "failed", "passed", "match", "matched",
     # what a form says of the answer it asks for ("Security answer: Case-sensitive": an attacker's line)
     "case-sensitive", "case", "see", "same", "choose", "select", "enter", "type", "provide", "mandatory", "encrypted",
     "hashed", "stored", "saved", "any"}
)  # fmt: skip

_GATE = index_words(
    "security q", "security a", "secret q", "secret a", "your first", "your mother", "maiden", "first pet",
    "pregunta", "respuesta",
    "sicherheitsfrage", "sicherheitsantwort", "question s", "question de s", "réponse secr", "reponse secr",
    "domanda", "pergunta",
    "beveiligingsvraag", "pytanie", "güvenlik sorusu", "guvenlik sorusu", "first school", "first car",
    "réponse", "reponse", "resposta", "risposta", "güvenlik", "guvenlik", "beveiligingsantwoord",
    "first teacher", "of birth", "birth city", "birthplace", "favorite", "favourite", "childhood", "grew up on",
    "middle name",
)  # fmt: skip


def may_hold_security_answer(scan: Scan) -> bool:
    return not _GATE.isdisjoint(scan.words)


def find_security_answers(scan: Scan) -> Iterator[Span]:
    text = scan.text
    for match in _LABELLED.finditer(text):
        # (a question's label followed by the question itself asks, it does not answer: "Security question: first
        # pet / answer: Mochi" gives "Mochi" by the answer's label)
        asked = _QUESTION_NEXT.match(text, match.start("answer"))
        if _an_answer(match["answer"]) and asked is None:
            yield match.span("answer")
    for match in _NAMED_ANSWER.finditer(text):
        # (a digit or a symbol in it: a form's status after the label is a word, "Security answer: Invalid",
        # "Sicherheitsantwort: Pflichtfeld", and so is prose's "the secret answer: Consistency": an attacker's round)
        answer = match["answer"].rstrip("*")  # a required field's mark ("Security answer: Required*")
        if answer and _an_answer(answer) and _NOT_A_WORD.search(answer) is not None:
            yield match.span("answer")
    for answered in _ANSWERED:
        for match in answered.finditer(text):
            if _an_answer(match["answer"]):
                yield match.span("answer")
    for match in _ASKED.finditer(text):
        if _an_answer(match["answer"]) and _SPOKEN_OF.search(text, max(0, match.start() - _SPOKEN_REACH), match.end()):
            yield match.span("answer")


def _an_answer(answer: str) -> bool:
    first = answer.split(maxsplit=1)[0].lower()
    return first not in _NO_ANSWER and not set(answer) <= set("*xX#•")
