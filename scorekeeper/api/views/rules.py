"""The rules assistant: who won a trick, and why (:mod:`rules_engine.tricks`)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper.scoring import judge_trick

from .. import serializers as s
from .base import ApiView, responds


class TrickView(ApiView):
    # POST: judge a trick. Nothing is stored; any logged-in caller may ask.

    @extend_schema(
        operation_id="rules_trick_judge",
        summary="Who won this trick? The winner, each card as it counts, and why",
        description="Judges a trick by the game's rules (RULES.md): trumps, Third Hand's "
        "high rank and low led ace, Italian whist's jokers. Where a joker's player's choice "
        "decides, `winner` is null and `choices` lists who wins with each. With `held`, "
        "says whether a player revoked. Nothing is stored.",
        tags=["rules"],
        request=s.TrickInput,
        responses=responds(200, s.TrickOutput, 400, 401),
        examples=[
            OpenApiExample(
                "Prediction whist, hearts trumps",
                value={"game": "prediction_whist", "trump": "H", "cards": ["QS", "9H", "KS"]},
                request_only=True,
            ),
            OpenApiExample(
                "Italian whist, the black joker on a red lead",
                value={
                    "game": "italian_whist",
                    "deal": 4,
                    "half": "first",
                    "players": ["Ann", "Bob", "Cy"],
                    "cards": ["QH", "BJ", "5D"],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        trick = self.parse(s.TrickInput, request.data)
        verdict = judge_trick(trick)
        return Response(s.TrickOutput(verdict.as_dict()).data)
