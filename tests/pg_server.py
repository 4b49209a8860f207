"""A throw-away PostgreSQL cluster for the tests: initdb into a temporary directory, pg_ctl start
listening on 127.0.0.1 on a free port (its unix socket in the same directory), stopped and removed
at the end. PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user the
Debian package creates, else as `nobody`, in a directory that user owns."""
from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
from glob import glob
from itertools import count
from pathlib import Path

SERVER_PROGRAMS = ("initdb", "pg_ctl", "psql")


def server_binaries() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, else the newest /usr/lib/postgresql/*/bin (Debian)."""
    found = shutil.which("initdb")
    if found and all((Path(found).resolve().parent / p).exists() for p in SERVER_PROGRAMS):
        return Path(found).resolve().parent
    def major(path: str) -> int:
        match = re.search(r"/postgresql/(\d+)/", path)
        return int(match.group(1)) if match else 0
    for candidate in sorted(glob("/usr/lib/postgresql/*/bin/initdb"), key=major, reverse=True):
        bindir = Path(candidate).parent
        if all((bindir / p).exists() for p in SERVER_PROGRAMS):
            return bindir
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresCluster:
    USER = "wayfinder"   # the cluster's superuser; trust authentication, 127.0.0.1 only

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="wayfinder-pg-"))
        self.data = self.dir / "data"
        self.port = 0
        self._names = count(1)
        self._database: str | None = None
        self._as: list[str] = []
        if os.geteuid() == 0:
            account = next((a for a in ("postgres", "nobody") if _exists(a)), None)
            if account is None:
                raise RuntimeError("running as root, and neither a postgres nor a nobody account exists")
            entry = pwd.getpwnam(account)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
            self._as = ["runuser", "-u", account, "--"]

    @property
    def url(self) -> str:
        return f"postgresql://{self.USER}@127.0.0.1:{self.port}"

    def _server(self, program: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([*self._as, str(self.bindir / program), *args], capture_output=True, text=True,
                              timeout=timeout, cwd=self.dir)

    def start(self) -> "PostgresCluster":
        done = self._server("initdb", "-D", str(self.data), "-A", "trust", "-U", self.USER, "-E", "UTF8",
                            "--locale=C", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        for _ in range(3):   # another program may take the free port first
            self.port = _free_port()
            done = self._server("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w", "-t", "30",
                                "-o", f"-h 127.0.0.1 -p {self.port} -k {self.dir}", "start")
            if done.returncode == 0:
                self._watch()
                return self
        log = (self.dir / "server.log").read_text(errors="replace") if (self.dir / "server.log").exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {done.stderr or done.stdout}\n{log[-2000:]}")

    def _watch(self) -> None:
        """Stop and remove the cluster once this test run ends, however it ends (killed, timed out):
        a small shell loop, in its own session, waiting for this process to go."""
        stop = " ".join(shlex.quote(a) for a in [*self._as, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                                                  "-m", "immediate", "-w", "stop"])
        script = (f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
                  f"{stop} >/dev/null 2>&1; rm -rf {shlex.quote(str(self.dir))}")
        subprocess.Popen(["sh", "-c", script], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        if self.port:
            self._server("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self) -> str:
        """A fresh, empty settings database's URL: a schema of its own in the tests' database, named
        as the search path in the URL (libpq's `options`, which asyncpg passes on too) — to the
        store the same as an empty database, and much quicker to make."""
        if self._database is None:
            self._database = f"{self.url}/wayfinder_tests"
            self.sql(f"{self.url}/postgres", "CREATE DATABASE wayfinder_tests")
        schema = f"settings_{next(self._names)}"
        self.sql(self._database, f"CREATE SCHEMA {schema}")
        return f"{self._database}?options=-csearch_path%3D{schema}"

    def sql(self, url: str, statement: str) -> str:
        """Run one statement with psql; its output, unaligned, tuples only."""
        done = subprocess.run([str(self.bindir / "psql"), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url,
                               "-c", statement], capture_output=True, text=True, timeout=60)
        if done.returncode:
            raise RuntimeError(f"psql failed: {done.stderr}")
        return done.stdout.strip()


def _exists(account: str) -> bool:
    try:
        pwd.getpwnam(account)
        return True
    except KeyError:
        return False
