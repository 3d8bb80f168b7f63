"""The benchmark's URLs: the app's, plus the bare endpoints it is measured against. A bare
endpoint has the API's authentication (token) and permission (logged in), and does the
least work of its kind: the POST inserts one row, the GET answers a small JSON."""

from django.db import connection
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.urls import urlpatterns as app_urlpatterns


class Bare(APIView):
    def get(self, request: Request) -> Response:
        return Response({"user": request.user.pk})

    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_bare (user_id) VALUES (%s)", [request.user.pk])
        return Response({"user": request.user.pk}, status=201)


urlpatterns = [path("bench/bare/", Bare.as_view()), *app_urlpatterns]
