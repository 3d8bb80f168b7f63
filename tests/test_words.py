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
