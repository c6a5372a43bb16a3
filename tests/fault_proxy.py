"""A fault-injection TCP proxy: put it between a program and a server, then cut and restore the
connection at will, as a dropped network or a restarting database would.

Plain Python (sockets and threads), no dependencies, so tests and bench scripts can both use it:

    with FaultProxy("127.0.0.1", 5432) as proxy:        # listens on a free port of 127.0.0.1
        url = f"postgres://postgres@127.0.0.1:{proxy.port}/mydb"
        ...                                             # the program under test uses `url`
        proxy.cut()                                     # every live connection is closed
        ...                                             # new ones are refused (reset at once)
        proxy.restore()                                 # new connections are forwarded again

Faults:
- `cut()` closes every live connection (both sides, so the server sees its client vanish and
  rolls back an open transaction) and, until `restore()`, answers each new connection by closing
  it at once (`mode="refuse"`, as a stopped server's host would) or by holding it open without
  forwarding a byte (`mode="blackhole"`, as a partitioned network: the client waits for its own
  timeout).
- `cut_on(pattern)` arms a one-shot trigger: the first client-to-server packet that contains
  `pattern` (e.g. b'INSERT INTO "accounts_membership"', in PostgreSQL's unencrypted protocol: use
  sslmode=disable) is dropped and the proxy cuts, so a fault can land between two statements of
  one request. `restore()` is still needed afterwards.
- `down(seconds)` as a context manager: cut on entry, restore on exit.

`stats` counts what happened (connections accepted, forwarded, refused, severed; cuts). From a
shell: `python tests/fault_proxy.py --target 127.0.0.1:5432 --listen 127.0.0.1:6543`; then
`kill -USR1 <pid>` cuts, `kill -USR2 <pid>` restores, Ctrl-C stops.
"""

from __future__ import annotations

import argparse
import contextlib
import select
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal

Mode = Literal["refuse", "blackhole"]
_BUFFER = 64 * 1024


@dataclass
class ProxyStats:
    """What the proxy did since it started."""

    accepted: int = 0  # connections accepted on the listening port
    forwarded: int = 0  # of those, connected through to the target
    refused: int = 0  # closed at once because the proxy was cut (mode "refuse")
    blackholed: int = 0  # held without forwarding because the proxy was cut (mode "blackhole")
    severed: int = 0  # live connections closed by a cut
    cuts: int = 0
    restores: int = 0
    down_seconds: float = 0.0  # total time spent cut (restored periods only)
    triggers: list[bytes] = field(default_factory=list)  # patterns that fired a cut


class FaultProxy:
    """A TCP proxy from `listen_host:listen_port` (0: a free port) to `target_host:target_port`
    that can be cut and restored; thread-based, a context manager (started on entry)."""

    def __init__(
        self,
        target_host: str,
        target_port: int,
        *,
        listen_host: str = "127.0.0.1",
        listen_port: int = 0,
        mode: Mode = "refuse",
        connect_timeout: float = 5.0,
    ) -> None:
        self.target = (target_host, target_port)
        self.mode: Mode = mode
        self.connect_timeout = connect_timeout
        self.stats = ProxyStats()
        self._lock = threading.Lock()
        self._live: set[socket.socket] = set()  # every socket of a forwarded or held connection
        self._cut_since: float | None = None
        self._trigger: bytes | None = None
        self._stopping = threading.Event()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((listen_host, listen_port))
        self._listener.listen(128)
        self.host, self.port = self._listener.getsockname()[:2]
        self._acceptor = threading.Thread(target=self._accept_loop, name="fault-proxy-accept", daemon=True)

    # -- control -------------------------------------------------------------------------------

    def start(self) -> FaultProxy:
        """Start accepting connections; return the proxy."""
        if not self._acceptor.is_alive():
            self._acceptor.start()
        return self

    def stop(self) -> None:
        """Stop accepting and close every connection."""
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        self._close_all()
        if self._acceptor.is_alive():
            self._acceptor.join(timeout=5)

    @property
    def is_cut(self) -> bool:
        """Return whether the proxy is cut now."""
        return self._cut_since is not None

    def cut(self, mode: Mode | None = None) -> int:
        """Close every live connection and refuse (or blackhole) new ones until `restore()`;
        return how many live connections were closed."""
        with self._lock:
            if mode is not None:
                self.mode = mode
            if self._cut_since is None:
                self._cut_since = time.monotonic()
                self.stats.cuts += 1
            self._trigger = None
        severed = self._close_all()
        with self._lock:
            self.stats.severed += severed
        return severed

    def restore(self) -> float:
        """Forward new connections again (connections held in a blackhole are closed); return
        how many seconds the proxy was cut (0 when it was not)."""
        with self._lock:
            since, self._cut_since = self._cut_since, None
            if since is None:
                return 0.0
            seconds = time.monotonic() - since
            self.stats.down_seconds += seconds
            self.stats.restores += 1
        self._close_all()  # blackholed connections never carried data: let their clients retry
        return seconds

    def cut_on(self, pattern: bytes) -> None:
        """Cut the moment a client sends a packet containing `pattern` (that packet is dropped)."""
        with self._lock:
            self._trigger = pattern

    @contextlib.contextmanager
    def down(self, seconds: float = 0.0, mode: Mode | None = None) -> Iterator[FaultProxy]:
        """Cut on entry, wait `seconds` after the block (if it took less), restore on exit."""
        started = time.monotonic()
        self.cut(mode)
        try:
            yield self
            left = seconds - (time.monotonic() - started)
            if left > 0:
                time.sleep(left)
        finally:
            self.restore()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- plumbing ------------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                ready, _, _ = select.select([self._listener], [], [], 0.2)
                if not ready:
                    continue
                client, _ = self._listener.accept()
            except OSError:
                return  # the listener was closed by stop()
            with self._lock:
                self.stats.accepted += 1
                cut, mode = self._cut_since is not None, self.mode
            if cut and mode == "refuse":
                with self._lock:
                    self.stats.refused += 1
                _reset(client)
                continue
            if cut:  # blackhole: hold the connection, read nothing, answer nothing
                with self._lock:
                    self.stats.blackholed += 1
                    self._live.add(client)
                continue
            threading.Thread(
                target=self._connect, args=(client,), name="fault-proxy-conn", daemon=True
            ).start()

    def _connect(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.target, timeout=self.connect_timeout)
        except OSError:
            _reset(client)
            return
        upstream.settimeout(None)
        with self._lock:
            if self._cut_since is not None:  # cut while connecting
                _reset(client)
                _reset(upstream)
                return
            self._live.update((client, upstream))
            self.stats.forwarded += 1
        for source, sink, watch in ((client, upstream, True), (upstream, client, False)):
            threading.Thread(
                target=self._pump, args=(source, sink, watch), name="fault-proxy-pump", daemon=True
            ).start()

    def _pump(self, source: socket.socket, sink: socket.socket, watch: bool) -> None:
        try:
            while True:
                data = source.recv(_BUFFER)
                if not data:
                    break
                if watch and self._trigger is not None and self._trigger in data:
                    with self._lock:
                        fired = self._trigger is not None and self._trigger in data
                        if fired:
                            self.stats.triggers.append(self._trigger)
                    if fired:
                        self.cut()
                        return
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with self._lock:
                self._live.discard(sock)
            _close(sock)

    def _close_all(self) -> int:
        """Close every live connection; return how many (client, upstream pairs count once)."""
        with self._lock:
            sockets, self._live = list(self._live), set()
        # Each forwarded connection holds two sockets, a held (blackholed) one a single socket.
        connections = sum(1 for sock in sockets if _is_client_side(sock, self.port))
        for sock in sockets:
            _reset(sock)
        return connections


def _is_client_side(sock: socket.socket, port: int) -> bool:
    try:
        return bool(sock.getsockname()[1] == port)
    except OSError:
        return False  # closed by its pump meanwhile: that connection had already ended


def _reset(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0), as a dead host's kernel answers, not a polite FIN."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    _close(sock)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def main(argv: list[str] | None = None) -> int:
    """Run a proxy until Ctrl-C: SIGUSR1 cuts, SIGUSR2 restores; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True, help="HOST:PORT to forward to")
    parser.add_argument("--listen", default="127.0.0.1:0", help="HOST:PORT to listen on (port 0: free)")
    parser.add_argument("--mode", choices=("refuse", "blackhole"), default="refuse")
    args = parser.parse_args(argv)
    listen_host, listen_port = _address(args.listen)
    proxy = FaultProxy(
        *_address(args.target), listen_host=listen_host, listen_port=listen_port, mode=args.mode
    )

    def on_cut(signum: int, frame: object) -> None:
        print(f"cut: {proxy.cut()} connection(s) closed", flush=True)

    def on_restore(signum: int, frame: object) -> None:
        print(f"restored after {proxy.restore():.1f} s", flush=True)

    signal.signal(signal.SIGUSR1, on_cut)
    signal.signal(signal.SIGUSR2, on_restore)
    with proxy:
        print(f"forwarding {proxy.host}:{proxy.port} -> {args.target}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    print(proxy.stats, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
