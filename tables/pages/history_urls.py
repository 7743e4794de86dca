"""Hand histories and exports; included by tables.pages.urls, so the names are
``tables:history`` etc."""

from __future__ import annotations

from django.urls import path

from tables.pages import history, proofs

urlpatterns = [
    path("t/<str:code>/hands/", history.hand_list, name="history"),
    path("t/<str:code>/hands/pokerstars.txt", history.game_pokerstars,
         name="game_pokerstars"),
    path("t/<str:code>/hands/game.phhs", history.game_phh, name="game_phh"),
    path("t/<str:code>/hands/<int:number>/", history.hand_page, name="hand"),
    path("t/<str:code>/hands/<int:number>/pokerstars.txt", history.hand_pokerstars,
         name="hand_pokerstars"),
    path("t/<str:code>/hands/<int:number>/hand.phh", history.hand_phh, name="hand_phh"),
    path("t/<str:code>/hands/<int:number>/proof.json", proofs.hand_proof,
         name="hand_proof"),  # the deck proof
    path("t/<str:code>/results.csv", history.results_csv, name="results_csv"),
]
