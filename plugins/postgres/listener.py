"""One listening connection per deck: PostgreSQL ``NOTIFY`` turned into callbacks.

==================  ===========================================================================
rule                behaviour
==================  ===========================================================================
channels            ``tooldeck_<name>`` (``tooldeck_trust``, ``tooldeck_policy``); a payload
                    is ``<namespace> <text>``, and only the deck's own namespace is heard
thread              a daemon thread waits on the connection (``notifies``, half-second ticks
                    so that :meth:`Listener.close` returns promptly)
reconnect           a dropped connection is reopened with a growing pause (0.1 s to 5 s);
                    while it is down :attr:`Listener.healthy` is False, and on every
                    (re)connection each ``on_reset`` callback runs: what was missed meanwhile
                    must be re-read, never assumed
==================  ===========================================================================
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from typing import Any

import psycopg

__all__ = ["Listener", "channel_name"]

_TICK_S = 0.5
_MAX_PAUSE_S = 5.0


def channel_name(channel: str) -> str:
    """The PostgreSQL channel of a tooldeck channel name."""
    return f"tooldeck_{channel}"


class Listener:
    """Listens on the tooldeck channels for one namespace.

    :param connect: opens a new autocommit connection.
    :param namespace: the deck's ``[storage] namespace``.
    """

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]], namespace: str) -> None:
        self._connect = connect
        self._namespace = namespace
        self._callbacks: dict[str, list[Callable[[str], None]]] = {}
        self._resets: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._channels_changed = False
        self._thread = threading.Thread(target=self._run, name="tooldeck-pg-listener",
                                        daemon=True)

    @property
    def healthy(self) -> bool:
        """Whether notifications are being received right now."""
        return self._connected.is_set()

    def subscribe(self, channel: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(text)`` for every notification on ``channel`` in our namespace.

        :returns: a function that stops the calls.
        """
        with self._lock:
            self._callbacks.setdefault(channel, []).append(callback)
            self._channels_changed = True

        def stop() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._callbacks[channel].remove(callback)

        return stop

    def on_reset(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever the connection is (re)established."""
        with self._lock:
            self._resets.append(callback)

    def start(self, timeout: float) -> None:
        """Start listening; wait up to ``timeout`` seconds for the first connection."""
        self._thread.start()
        self._connected.wait(timeout)

    def close(self) -> None:
        """Stop listening (returns within about half a second)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(_TICK_S * 4)

    # ------------------------------------------------------------------ the thread

    def _listen_all(self, conn: psycopg.Connection[Any]) -> None:
        with self._lock:
            channels = list(self._callbacks)
            self._channels_changed = False
        for channel in channels:
            conn.execute(f'LISTEN "{channel_name(channel)}"')

    def _dispatch(self, channel: str, payload: str) -> None:
        namespace, _, text = payload.partition(" ")
        if namespace != self._namespace or not channel.startswith("tooldeck_"):
            return
        with self._lock:
            callbacks = list(self._callbacks.get(channel[len("tooldeck_"):], ()))
        for callback in callbacks:
            try:
                callback(text)
            except Exception as exc:  # one bad callback must not stop the others
                print(f"tooldeck: postgres: a {channel} callback failed: {exc!r}",
                      file=sys.stderr)

    def _reset(self) -> None:
        with self._lock:
            resets = list(self._resets)
        for callback in resets:
            callback()

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    self._listen_all(conn)
                    self._connected.set()
                    self._reset()
                    pause = 0.1
                    while not self._stop.is_set():
                        if self._channels_changed:
                            self._listen_all(conn)
                        for note in conn.notifies(timeout=_TICK_S):
                            self._dispatch(note.channel, note.payload)
            except Exception as exc:
                if not self._stop.is_set():
                    print(f"tooldeck: postgres: listening connection lost, reconnecting: "
                          f"{exc}", file=sys.stderr)
            finally:
                self._connected.clear()
                self._reset()
            self._stop.wait(pause)
            pause = min(pause * 2, _MAX_PAUSE_S)
