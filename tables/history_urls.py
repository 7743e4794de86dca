"""Hand histories and exports; included by tables.urls, so the names are ``tables:history`` etc."""

from __future__ import annotations

from django.urls import path

from tables import history_views, proof_views

urlpatterns = [
    path("t/<str:code>/hands/", history_views.hand_list, name="history"),
    path("t/<str:code>/hands/pokerstars.txt", history_views.game_pokerstars,
         name="game_pokerstars"),
    path("t/<str:code>/hands/game.phhs", history_views.game_phh, name="game_phh"),
    path("t/<str:code>/hands/<int:number>/", history_views.hand_page, name="hand"),
    path("t/<str:code>/hands/<int:number>/pokerstars.txt", history_views.hand_pokerstars,
         name="hand_pokerstars"),
    path("t/<str:code>/hands/<int:number>/hand.phh", history_views.hand_phh, name="hand_phh"),
    path("t/<str:code>/hands/<int:number>/proof.json", proof_views.hand_proof,
         name="hand_proof"),  # the deck proof (issue 18)
    path("t/<str:code>/results.csv", history_views.results_csv, name="results_csv"),
]
