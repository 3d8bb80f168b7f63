"""Words the pages put together (``scorekeeper/templatetags/words.py``)."""

from django.template import Context, Template


def render(names: list[str]) -> str:
    return Template("{% load words %}{{ names|and_list }}").render(Context({"names": names}))


def test_names_read_as_a_sentence_says_them() -> None:
    assert render([]) == ""
    assert render(["Ann"]) == "Ann"
    assert render(["Ann", "Bob"]) == "Ann and Bob"
    assert render(["Gina", "Eve", "Finn"]) == "Gina, Eve and Finn"
    assert render(["<b>"]) == "&lt;b&gt;"  # still escaped


def numbers(template: str, value: object) -> str:
    return Template("{% load words %}" + template).render(Context({"value": value}))


def test_numbers_are_written_with_a_real_minus_sign_as_on_the_scoresheet() -> None:
    assert [numbers("{{ value|minus }}", v) for v in (-12, 0, 7)] == ["\u221212", "0", "7"]
    assert numbers("{{ value|floatformat:2|minus }}", -1.5) == "\u22121.50"
    assert [numbers("{{ value|signed }}", v) for v in (-3, 0, 4, 1.5)] == [
        "\u22123",
        "0",
        "+4",
        "+1.5",
    ]
    assert numbers("{{ value|floatformat:2|signed }}", 0) == "0.00"


def test_a_role_takes_its_article() -> None:
    roles = ("admin", "director", "scorer", "member")
    assert [numbers("{{ value|with_article }}", role) for role in roles] == [
        "an admin",
        "a director",
        "a scorer",
        "a member",
    ]
