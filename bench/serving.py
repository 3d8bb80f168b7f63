"""A local server process, as the benchmarks and the tests start one: a free port to give
it, and a wait until it answers."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(url: str, process: subprocess.Popen[bytes], timeout: float, pause: float) -> bool:
    """Whether ``url`` answers (a 2xx or 3xx) before ``process`` ends or ``timeout`` seconds
    pass, asking again every ``pause`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return True
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(pause)
