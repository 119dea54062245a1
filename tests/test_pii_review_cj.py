"""Reviewer CJ's blind round (government services', utilities' and a software team's coding agents; 22 languages):
each form found missed, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Go's MySQL data source name: its user and password before "@tcp(" with no scheme
        (
            'var dsn = "notify:ssYw~wPTi7Ulu9eaz@tcp(mysql-notify:3306)/notify"',
            ["notify:ssYw~wPTi7Ulu9eaz"],
        ),
        ("mysql.dsn=deploy:Sunfl0wer~59@unix(/var/run/mysqld.sock)/shop", ["deploy:Sunfl0wer~59"]),
        # a leet secret's key, German's leet password words
        ("s3cr3t_k3y => q6H0veLLyTYoVfzGaqK0dnfBWdEVacRRhp3VhpU46", ["q6H0veLLyTYoVfzGaqK0dnfBWdEVacRRhp3VhpU46"]),
        ("K3nnw0rt: 81Wasserturm+06", ["81Wasserturm+06"]),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        'dsn := "root:password@tcp(127.0.0.1:3306)/test"',  # the documentation's word for a password
        'dsn := "user:${DB_PASS}@tcp(db:3306)/app"',  # a variable
        "s3cr3t_k3y => changeme",
        "K3nnw0rt: vergessen",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
