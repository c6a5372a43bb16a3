"""The fault-injection proxy (tests/fault_proxy.py) against an echo server in this process."""

import socket
import threading
from collections.abc import Iterator

import pytest

from tests.fault_proxy import FaultProxy


@pytest.fixture
def echo_port() -> Iterator[int]:
    """An echo server on a free port: each connection gets back every byte it sends."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            try:
                while data := conn.recv(4096):
                    conn.sendall(data)
            except OSError:
                pass

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join(timeout=5)
    server.close()


def connect(proxy: FaultProxy) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=5)
    sock.settimeout(5)
    return sock


def echo(sock: socket.socket, data: bytes) -> bytes:
    sock.sendall(data)
    received = b""
    while len(received) < len(data):
        chunk = sock.recv(4096)
        if not chunk:
            break
        received += chunk
    return received


def closed_by_peer(sock: socket.socket) -> bool:
    """Return whether the connection is closed (EOF or reset) rather than answering."""
    try:
        sock.sendall(b"ping")
        return sock.recv(4096) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def refused(proxy: FaultProxy) -> bool:
    """Return whether a new connection fails at once (refused while connecting, or reset)."""
    try:
        sock = connect(proxy)
    except OSError:
        return True
    with sock:
        return closed_by_peer(sock)


def test_forwards_both_ways(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port) as proxy, connect(proxy) as sock:
        assert proxy.port != echo_port
        assert echo(sock, b"hello" * 1000) == b"hello" * 1000
        assert proxy.stats.forwarded == 1


def test_cut_closes_live_connections_and_refuses_new_ones_until_restored(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port) as proxy:
        first, second = connect(proxy), connect(proxy)
        assert echo(first, b"a") == b"a" and echo(second, b"b") == b"b"
        assert proxy.cut() == 2
        assert proxy.is_cut
        assert closed_by_peer(first) and closed_by_peer(second)
        assert refused(proxy)
        assert proxy.stats.refused == 1
        assert proxy.restore() > 0
        assert not proxy.is_cut
        with connect(proxy) as after:
            assert echo(after, b"back") == b"back"
        assert (proxy.stats.cuts, proxy.stats.restores, proxy.stats.severed) == (1, 1, 2)
        first.close()
        second.close()


def test_blackhole_holds_new_connections_without_an_answer(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port, mode="blackhole") as proxy:
        proxy.cut()
        with connect(proxy) as held:
            held.settimeout(0.3)
            held.sendall(b"anyone?")
            with pytest.raises(TimeoutError):
                held.recv(10)
            held.settimeout(5)
            proxy.restore()  # held connections are closed so that their clients try again
            assert closed_by_peer(held)
        assert proxy.stats.blackholed == 1
        with connect(proxy) as after:
            assert echo(after, b"ok") == b"ok"


def test_cut_on_a_pattern_drops_that_packet_and_cuts(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port) as proxy:
        proxy.cut_on(b"INSERT")
        with connect(proxy) as sock:
            assert echo(sock, b"SELECT 1") == b"SELECT 1"
            sock.sendall(b"INSERT INTO t")
            assert sock.recv(100) == b""  # nothing echoed: the packet never reached the server
        assert proxy.is_cut and proxy.stats.triggers == [b"INSERT"]
        proxy.restore()
        with connect(proxy) as sock:
            assert echo(sock, b"INSERT again") == b"INSERT again"  # the trigger fired once


def test_down_cuts_for_the_block_and_restores(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port) as proxy:
        with proxy.down():
            assert proxy.is_cut
        assert not proxy.is_cut and proxy.stats.down_seconds > 0


def test_a_dead_target_resets_the_client() -> None:
    with socket.socket() as placeholder:
        placeholder.bind(("127.0.0.1", 0))
        dead_port = placeholder.getsockname()[1]  # nothing listens once the socket is closed
    with FaultProxy("127.0.0.1", dead_port) as proxy:
        assert refused(proxy)
        assert proxy.stats.forwarded == 0
