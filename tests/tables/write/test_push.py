"""Web Push (tables.write.push): the server's notifications reach a push service run by the
test, which decrypts each with the subscription's own keys (RFC 8291, aes128gcm, by http_ece:
the real encryption, nothing of pywebpush replaced). Your turn once per turn and only to a
phone with no page of the table in sight; a late friend let in; a gone subscription deleted;
"stop" deletes it; a failure never touches the change."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.test import Client
from django.utils import timezone

from engine.cards import RANK_NAMES
from tables import claims, clock
from tables.models import PageInSight, PushClaim, PushSubscription, SeatRequest, Table
from tables.write import late, lobby, out, path, play, push
from tests.tables.helpers import Phone, game_of, new_session
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """A browser's side of a subscription: its key pair and auth secret (RFC 8291)."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        ))

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        return dict(json.loads(plain))


@dataclass
class Delivered:
    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """A push service on a port of the test's: keeps what it is sent, answers ``status``."""

    def __init__(self) -> None:
        self.delivered: list[Delivered] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.delivered.append(Delivered(self.path, dict(self.headers.items()), body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{name}"

    def to(self, name: str) -> list[Delivered]:
        return [d for d in self.delivered if d.path == f"/push/{name}"]


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    settings.PUSH_IN_BACKGROUND = False  # sent before the change's call returns
    settings.DEBUG = True  # a push service on http://127.0.0.1 (https only, otherwise)
    running = PushService()
    yield running
    running.server.shutdown()


def _subscribe(session: Any, service: PushService, name: str) -> Browser:
    browser = Browser()
    push.subscribe(session, session.session_key, service.endpoint(name), browser.p256dh,
                   b64url(browser.auth), "en")
    session.save()
    return browser


def _game() -> tuple[Table, list[Any]]:
    """Asha (host) and Bikash on their own phones, two computers."""
    return seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))


def _to_act(table: Table) -> int | None:
    hand = game_of(table).hand
    return hand.seat_to_act if hand is not None and table.deadline_kind == "turn" else None


def _until_turn_of(table: Table, position: int, hashes: list[str], *, fresh: bool) -> Table:
    """Play on (the clock moves computers and times people out) until it is ``position``'s
    turn; ``fresh``: a turn that arrives by a change from now on (one already current is
    played first)."""
    for _ in range(400):
        table.refresh_from_db()
        if _to_act(table) == position and not fresh:
            return table
        if _to_act(table) == position:
            legal = game_of(table).hand.legal_actions()  # type: ignore[union-attr]
            kind = "check" if legal is not None and legal.can_check else "fold"
            play.act(table.id, hashes, kind=kind, amount=None, version=table.version,
                     action_id=f"a{table.version}")
        else:
            assert table.status == Table.Status.PLAYING
            clock.fire(table.id, table.version, table.next_deadline)
        fresh = False
    raise AssertionError("never their turn")


def _no_card_in(text: str) -> None:
    for rank in RANK_NAMES:
        for suit in "shdc♠♥♦♣":
            assert f" {rank}{suit} " not in f" {text} "


def test_your_turn_reaches_a_locked_phone_encrypted_for_its_own_keys(
    service: PushService,
) -> None:
    table, (asha, _bikash) = _game()
    browser = _subscribe(asha, service, "asha")
    asha_hashes = claims.session_hashes(asha)
    _until_turn_of(table, 0, asha_hashes, fresh=True)
    sent = service.to("asha")
    assert len(sent) == 1
    message = browser.read(sent[0].body)
    assert message["title"] == "Your turn"
    assert message["url"] == f"/t/{table.code}/"
    assert table.code in message["body"]
    _no_card_in(json.dumps(message))
    headers = {k.lower(): v for k, v in sent[0].headers.items()}
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["urgency"] == "high"
    # Signed with the server's VAPID key: the public half is the one pages subscribe with.
    assert f"k={settings.VAPID_PUBLIC_KEY}" in headers["authorization"]


def test_a_turn_is_pushed_once_however_many_changes_see_it(service: PushService) -> None:
    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    table = _until_turn_of(table, 0, claims.session_hashes(asha), fresh=True)
    assert len(service.to("asha")) == 1
    for _ in range(3):  # changes that keep the turn (a new version each)
        path.apply_change(table.id, lambda change: change.mark())
    table.refresh_from_db()
    assert _to_act(table) == 0
    assert len(service.to("asha")) == 1


def test_no_turn_is_pushed_while_a_page_of_the_table_is_in_sight(service: PushService) -> None:
    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    phone = claims.phone_id(asha.session_key)
    hashes = claims.session_hashes(asha)
    push.sight(table.id, phone, +1)
    _until_turn_of(table, 0, hashes, fresh=True)
    assert service.to("asha") == []
    push.sight(table.id, phone, -1)  # the page was hidden (the phone locked)
    _until_turn_of(table, 0, hashes, fresh=True)
    assert len(service.to("asha")) == 1


def test_a_page_in_sight_long_ago_does_not_hold_back_the_turn(service: PushService) -> None:
    """A server process that stopped without hearing the page go leaves its count behind."""
    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    PageInSight.objects.create(table=table, phone=claims.phone_id(asha.session_key), visible=1,
                               seen_at=timezone.now() - push.SIGHT_STALE * 2)
    _until_turn_of(table, 0, claims.session_hashes(asha), fresh=True)
    assert len(service.to("asha")) == 1


async def test_the_page_says_over_its_socket_whether_it_is_in_sight(
    service: PushService,
) -> None:
    from channels.db import database_sync_to_async

    table, (asha, _bikash) = await database_sync_to_async(_game)()
    phone_id = claims.phone_id(asha.session_key)
    visible = database_sync_to_async(
        lambda: list(PageInSight.objects.filter(table=table, phone=phone_id)
                     .values_list("visible", flat=True))
    )
    phone = Phone(table.code, asha.session_key)
    await phone.connect()
    await phone.comm.send_json_to({"type": "sight", "visible": True})
    await phone.comm.send_json_to({"type": "ping"})
    assert await phone.comm.receive_from(5) == "pong"  # (answered in order: the sight is in)
    assert await visible() == [1]
    await phone.comm.send_json_to({"type": "sight", "visible": False})
    await phone.comm.send_json_to({"type": "sight", "visible": True})
    await phone.comm.send_json_to({"type": "ping"})
    assert await phone.comm.receive_from(5) == "pong"
    assert await visible() == [1]
    await phone.comm.disconnect()  # the page closed: out of sight
    assert await visible() == [0]


def test_a_subscription_the_push_service_says_is_gone_is_deleted(service: PushService) -> None:
    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    service.status = 410
    _until_turn_of(table, 0, claims.session_hashes(asha), fresh=True)
    assert len(service.to("asha")) == 1
    assert not PushSubscription.objects.exists()
    assert not PushClaim.objects.exists()


def test_a_push_service_that_fails_never_touches_the_change(service: PushService) -> None:
    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    service.status = 500
    table = _until_turn_of(table, 0, claims.session_hashes(asha), fresh=True)
    assert PushSubscription.objects.count() == 1  # kept: only 404 and 410 say it is gone
    service.server.shutdown()
    service.server.server_close()  # nobody answers at all now
    version = table.version
    legal = game_of(table).hand.legal_actions()  # type: ignore[union-attr]
    kind = "check" if legal is not None and legal.can_check else "fold"
    play.act(table.id, claims.session_hashes(asha), kind=kind, amount=None, version=version,
             action_id="after-outage")
    table.refresh_from_db()
    assert table.version > version


def test_the_host_letting_a_late_friend_in_is_pushed_to_the_friend(
    service: PushService,
) -> None:
    table, (asha, _bikash) = _game()
    chandra = new_session()
    chandra.save()
    request = late.request_seat(table.id, chandra, "Chandra")
    chandra.save()
    waiting = _client_of(chandra).get(f"/t/{table.code}/").content.decode()
    assert f'href="/t/{table.code}/notify/" data-testid="late-notify"' in waiting
    browser = _subscribe(chandra, service, "chandra")  # turned on while waiting
    late.answer(table.id, claims.session_hashes(asha), request.pk, "yes")
    assert SeatRequest.objects.get(pk=request.pk).status in ("approved", "seated")
    sent = service.to("chandra")
    assert len(sent) == 1
    message = browser.read(sent[0].body)
    assert message["title"] == "You are in"
    assert "Asha" in message["body"]
    assert message["url"] == f"/t/{table.code}/"


def test_a_tournament_move_is_pushed_to_the_moved_player(service: PushService) -> None:
    session = new_session()
    session.save()
    claim = claims.new_claim(session)
    browser = _subscribe(session, service, "moved")
    push.moved(claim, "abcd", 3, 5)
    message = browser.read(service.to("moved")[0].body)
    assert message["body"] == "The tournament moved you to table 3, seat 5."


def test_notifications_come_in_the_language_the_phone_turned_them_on_in(
    service: PushService,
) -> None:
    session = new_session()
    session.save()
    claim = claims.new_claim(session)
    browser = Browser()
    push.subscribe(session, session.session_key, service.endpoint("ne"), browser.p256dh,
                   b64url(browser.auth), "ne")
    push.moved(claim, "abcd", 3, 5)
    message = browser.read(service.to("ne")[0].body)
    assert message["title"] != "You moved" and message["title"]


def test_turning_on_and_stop_through_the_pages(service: PushService) -> None:
    _table, (asha, _bikash) = _game()
    client = Client()
    client.cookies["sessionid"] = str(asha.session_key)
    browser = Browser()
    endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    answer = client.post("/push/on/", {"endpoint": endpoint, "p256dh": browser.p256dh,
                                       "auth": b64url(browser.auth)})
    assert answer.status_code == 200 and answer.json()["ok"]
    subscription = PushSubscription.objects.get(endpoint=endpoint)
    held = set(PushClaim.objects.filter(subscription=subscription)
               .values_list("claim_hash", flat=True))
    assert set(claims.session_hashes(asha)) <= held
    # Someone else cannot stop it: the subscription is this phone's.
    assert Client().post("/push/off/", {"endpoint": endpoint}).json()["deleted"] == 0
    assert PushSubscription.objects.filter(endpoint=endpoint).exists()
    assert client.post("/push/off/", {"endpoint": endpoint}).json()["deleted"] >= 1
    assert not PushSubscription.objects.filter(endpoint=endpoint).exists()


def test_a_subscription_with_keys_that_are_not_keys_is_refused(service: PushService) -> None:
    client = Client()
    answer = client.post("/push/on/", {"endpoint": "https://fcm.googleapis.com/x",
                                       "p256dh": "bm90IGEga2V5", "auth": "c2hvcnQ"})
    assert answer.status_code == 400
    good = {"p256dh": Browser().p256dh, "auth": b64url(os.urandom(16))}
    for endpoint in ("http://fcm.googleapis.com/x",  # not https
                     "https://push.example.org/x",  # not a browser's push service
                     "https://10.0.0.5/x", "https://fcm.googleapis.com.example.org/x"):
        answer = client.post("/push/on/", {"endpoint": endpoint, **good})
        assert answer.status_code == 400, endpoint
    assert not PushSubscription.objects.exists()


def test_a_seat_taken_after_turning_on_is_spoken_for_when_its_table_opens(
    service: PushService,
) -> None:
    session = new_session()
    session.save()
    _subscribe(session, service, "later")
    table = lobby.create_table(session, ["Dipa"], lobby.TableSettings(seat_count=2))
    session.save()
    client = Client()
    client.cookies["sessionid"] = str(session.session_key)
    assert client.get(f"/t/{table.code}/").status_code == 200
    claim = table.seats.get(position=0).claim_hash
    assert PushClaim.objects.filter(claim_hash=claim).exists()


def test_the_service_worker_is_served_from_the_root(service: PushService) -> None:
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    text = answer.content.decode()
    assert "showNotification" in text and "openWindow" in text


def test_the_table_page_loads_the_script_only_for_a_phone_that_turned_them_on(
    service: PushService,
) -> None:
    table, (asha, bikash) = _game()
    _subscribe(asha, service, "asha")
    asha_page = _client_of(asha).get(f"/t/{table.code}/").content.decode()
    bikash_page = _client_of(bikash).get(f"/t/{table.code}/").content.decode()
    assert "js/push." in asha_page and "js/push." not in bikash_page
    assert 'href="notify/"' in bikash_page  # the drawer's way to turn them on
    notify = _client_of(bikash).get(f"/t/{table.code}/notify/").content.decode()
    assert "js/push." in notify and 'data-testid="push-on"' in notify
    assert settings.VAPID_PUBLIC_KEY in notify


def _client_of(session: Any) -> Client:
    client = Client()
    client.cookies["sessionid"] = str(session.session_key)
    return client


def test_the_vapid_pair_comes_from_the_environment_or_is_made_once_for_development(
    tmp_path: Any,
) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from config import vapid

    private, public = vapid.new_pair()
    assert vapid.keys(private, public, debug=False, kept=tmp_path / "k") == (private, public)
    other_private, _other_public = vapid.new_pair()
    with pytest.raises(ImproperlyConfigured):
        vapid.keys(other_private, public, debug=False, kept=tmp_path / "k")
    with pytest.raises(ImproperlyConfigured):
        vapid.keys("not a key", public, debug=False, kept=tmp_path / "k")
    assert vapid.keys("", "", debug=False, kept=tmp_path / "k") == ("", "")  # off
    made = vapid.keys("", "", debug=True, kept=tmp_path / "k")
    assert made[0] and vapid.keys("", "", debug=True, kept=tmp_path / "k") == made  # kept


def test_without_a_key_pair_nothing_is_offered_or_sent(
    service: PushService, settings: Any
) -> None:
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    table, (asha, _bikash) = _game()
    PushSubscription.objects.create(endpoint=service.endpoint("asha"), p256dh=Browser().p256dh,
                                    auth=b64url(os.urandom(16)), phone="p")
    _until_turn_of(table, 0, claims.session_hashes(asha), fresh=True)
    assert service.delivered == []
    page = _client_of(asha).get(f"/t/{table.code}/notify/").content.decode()
    assert 'data-testid="push-on"' not in page


def test_a_phone_that_forgets_its_games_is_no_longer_told_of_their_turns(
    service: PushService,
) -> None:
    from tables.write import identity

    table, (asha, _bikash) = _game()
    _subscribe(asha, service, "asha")
    hashes = claims.session_hashes(asha)
    identity.forget(asha, asha.session_key)
    assert not PushClaim.objects.filter(claim_hash__in=hashes).exists()
    _until_turn_of(table, 0, hashes, fresh=True)
    assert service.to("asha") == []


def test_an_old_seat_is_spoken_for_once_its_table_page_opens(service: PushService) -> None:
    """A group's chain of games keeps one claim ("play again" copies it): however many
    tables the phone joined since, opening the table's page makes its subscription speak for
    it."""
    table, (asha, _bikash) = _game()
    old = claims.session_hashes(asha)[0]
    for _ in range(push.CLAIMS_KEPT + 5):
        claims.new_claim(asha)
    _subscribe(asha, service, "asha")
    assert not PushClaim.objects.filter(claim_hash=old).exists()
    assert _client_of(asha).get(f"/t/{table.code}/").status_code == 200
    assert PushClaim.objects.filter(claim_hash=old).exists()


def test_a_player_out_who_asked_is_pushed_when_the_next_game_starts(
    service: PushService,
) -> None:
    session = new_session()
    session.save()
    claim = claims.new_claim(session)
    browser = _subscribe(session, service, "out")
    assert push.next_game in out.NEXT_GAME_TELLERS  # tables.write.out tells through push
    push.next_game("wxyz", [claim])
    message = browser.read(service.to("out")[0].body)
    assert message["title"] == "The next game is on"
    assert message["url"] == "/t/wxyz/"
