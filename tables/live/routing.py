"""The websocket URL of a table: one connection per phone (``consumer.TableConsumer``)."""

from __future__ import annotations

from django.urls import path

from tables.live.consumer import TableConsumer

websocket_urlpatterns = [
    path("ws/t/<str:code>/", TableConsumer.as_asgi()),
]
