"""A server that comes back slowly, between the page and the app: a TCP relay on a port of its
own, in front of a running Daphne. ``down()`` drops every connection through it, the tries it
held included, and turns new ones away (a server stopped: the page's socket closes, what it had
accepted and not answered is reset with it, and its tries fail at once);
``hold()`` accepts new connections and never answers them (a server coming up that has bound
its port and does not serve yet, or a machine half back: a try begun now hangs); ``up()``
relays new connections to the app again (the server is back), while the tries held before
stay held until the page itself closes them or the server stops again. The page must not
wait long for a held try to be given up (static/js/live.js, ``connectWait``).

Closing a held try is not the same in every engine: Chromium and WebKit close its TCP
connection; Firefox keeps it open until the server answers or drops it, and with six of them
(its connections per server) no further try of the page reaches the server at all."""

from __future__ import annotations

import contextlib
import socket
import threading
import time


class Relay:
    def __init__(self, backend_port: int) -> None:
        self.backend_port = backend_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = int(self.listener.getsockname()[1])
        self.mode = "up"
        self.held: list[socket.socket] = []
        self.relayed: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                mode = self.mode
                if mode == "hold":
                    self.held.append(conn)
            if mode == "down":
                conn.close()
            elif mode == "up":
                threading.Thread(target=self._relay, args=(conn,), daemon=True).start()

    def _relay(self, conn: socket.socket) -> None:
        try:
            backend = socket.create_connection(("127.0.0.1", self.backend_port), 5)
        except OSError:
            conn.close()
            return
        with self._lock:
            self.relayed += [conn, backend]
        threading.Thread(target=_pipe, args=(backend, conn), daemon=True).start()
        _pipe(conn, backend)

    def down(self) -> None:
        with self._lock:
            self.mode = "down"
            dropped, self.relayed = self.relayed + self.held, []
            self.held = []
        for conn in dropped:
            _close(conn)

    def hold(self) -> None:
        with self._lock:
            self.mode = "hold"

    def up(self) -> float:
        """Relays again; the moment (time.time()) it does."""
        with self._lock:
            self.mode = "up"
            return time.time()

    def held_tries(self) -> int:
        """Tries held since the server last stopped (``down()``)."""
        with self._lock:
            return len(self.held)

    def wait_for_a_held_try(self, more_than: int = 0, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while self.held_tries() <= more_than:
            assert time.monotonic() < deadline, "the page made no try while the server was held"
            time.sleep(0.01)

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            everything, self.held, self.relayed = self.held + self.relayed, [], []
        for conn in everything:
            _close(conn)


def _pipe(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    _close(source)
    _close(target)


def _close(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
