#!/usr/bin/env python3
"""Follow deploy/README.md's install, from a bare Debian 12 to a served app, in a fresh root.

Usage, as root on a Debian host with `debootstrap` (apt-get install debootstrap):

    python3 deploy/drill.py [--root /var/tmp/kaiser-drill] [--keep]

The commands run are the README's own: its numbered "Install" steps and the backup folder of
"Club backups, written by beat" are read from the file, each code block run as written in a
`chroot` of a new `debootstrap --variant=minbase bookworm` root. So a step the README forgets
fails here. What a chroot cannot be, the drill stands in for, and prints each stand-in:

- there is no systemd: `systemctl` is a small script that starts a unit's `ExecStart` as its
  `User=` with its `EnvironmentFile=` (and Caddy, PostgreSQL, Redis their usual way);
- the host's PostgreSQL and Redis hold the standard ports, so the root's own listen on 5433 and
  6380, and the env file says so;
- this machine's proxy inspects TLS, so pip in the root trusts the host's authorities;
- the repository comes from this checkout (no route to a Git host here), the domain is
  `localhost` (Caddy then signs with its own local authority instead of Let's Encrypt), and the
  prose of step 5 ("Edit ...") and the password prompt of step 9 are done by the drill.

It then checks what step 10 asks: `/healthz?deep=1` through Caddy on https answers 200 with
database, cache and worker "ok" (within 120 s), plus a club made on the server, beat's backup
and the restore drill. It prints each step with its time and the total, and exits 1 at the
first step that fails (its output shown). The root stays for a look with --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "deploy" / "README.md"
DOMAIN = "kaiser.example.org"
CLONE_URL = "https://github.com/your-club/kaiser-league.git"
DB_PORT, REDIS_PORT = 5433, 6380
MOUNTS = ("proc", "sys", "dev", "dev/pts", "dev/shm")

SYSTEMCTL = r'''#!/usr/bin/python3
"""The drill's stand-in for systemd, which a chroot does not have: start, stop, restart and
reload run a unit's ExecStart as its User with its EnvironmentFile; cat says whether it exists."""
import os, shlex, shutil, signal, socket, subprocess, sys, time
UNITS, RUN = "/etc/systemd/system", "/run/drill"
os.makedirs(RUN, exist_ok=True)

def service(name):
    keys = {}
    with open(f"{UNITS}/{name}.service") as unit:
        for line in unit:
            if "=" in line and not line.startswith("#"):
                key, _, value = line.strip().partition("=")
                keys.setdefault(key, value)
    return keys

def environment(path):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, _, value = line.partition("=")
                env[key] = " ".join(shlex.split(value)) if value.strip() else ""
    return env

def stop(name):
    try:
        pid = int(open(f"{RUN}/{name}.pid").read())
        os.killpg(pid, signal.SIGTERM)
        for _ in range(100):
            os.killpg(pid, 0)
            time.sleep(0.1)
    except (OSError, ValueError):
        pass

def start(name):
    if name == "caddy":
        # Caddy's own background mode; its output to a log, not to the caller's pipe (which
        # would then never close).
        log = open("/var/log/caddy.log", "ab")
        return subprocess.run(["caddy", "start", "--config", "/etc/caddy/Caddyfile",
                               "--adapter", "caddyfile"], check=True, stdout=log, stderr=log,
                              stdin=subprocess.DEVNULL)
    if name == "postgresql":
        return subprocess.run(["pg_ctlcluster", "15", "main", "start"], check=True)
    if name == "redis-server":
        return subprocess.run(["redis-server", "/etc/redis/redis.conf", "--daemonize", "yes"],
                              check=True)
    keys = service(name)
    if "StateDirectory" in keys:
        state = f"/var/lib/{keys['StateDirectory']}"
        os.makedirs(state, exist_ok=True)
        shutil.chown(state, keys["User"], keys.get("Group", keys["User"]))
    command = keys["ExecStart"].replace("%%h", socket.gethostname()).replace("%%", "%")
    log = open(f"/var/log/{name}.log", "ab")
    process = subprocess.Popen(
        ["/usr/sbin/runuser", "-u", keys["User"], "--", *shlex.split(command)],
        cwd=keys.get("WorkingDirectory", "/"), env=environment(keys["EnvironmentFile"]),
        stdout=log, stderr=log, start_new_session=True)
    open(f"{RUN}/{name}.pid", "w").write(str(process.pid))

verb, *names = sys.argv[1:]
for name in (n.removesuffix(".service") for n in names):
    if verb == "cat":
        sys.exit(0 if os.path.exists(f"{UNITS}/{name}.service") else 1)
    if verb in ("stop", "restart"):
        stop(name)
    if verb == "reload" and name == "caddy":
        subprocess.run(["caddy", "reload", "--config", "/etc/caddy/Caddyfile",
                        "--adapter", "caddyfile"], check=True)
    elif verb in ("start", "restart", "reload"):
        stop(name)
        start(name)
'''


def readme_steps(text: str) -> list[tuple[str, str]]:
    """(title, shell script) of each numbered step of "## Install", then the code of the backup
    section. A step's script is its indented code blocks, in order; a step without one is kept
    (its prose is what the drill does for it)."""
    install = text.split("## Install", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in install.splitlines():
        heading = re.match(r"^(\d+)\. (.*)", line)
        if heading:
            steps.append((f"{heading[1]}. {heading[2]}", []))
        elif steps and line.startswith("       ") and line.strip():
            steps[-1][1].append(line.strip())
    backups = text.split("## Club backups, written by beat", 1)[1].split("\n## ", 1)[0]
    code = [
        line.strip() for line in backups.splitlines() if line.startswith("    ") and line.strip()
    ]
    steps.append(("backups. Club backups, written by beat", code[:1]))
    return [(title, "\n".join(lines)) for title, lines in steps]


class Drill:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.cwd = "/root"
        self.started = time.monotonic()

    def host(self, *command: str) -> None:
        subprocess.run(command, check=True)

    def run(self, script: str, title: str) -> str:
        """`script` run by bash in the root from the cwd the previous step left; fails loudly."""
        wrapped = f"set -euo pipefail\ncd {self.cwd}\n{script}\npwd > /run/drill-cwd\n"
        result = subprocess.run(
            [
                "chroot",
                str(self.root),
                "/usr/bin/env",
                "-i",
                "HOME=/root",
                "LANG=C.UTF-8",
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "DEBIAN_FRONTEND=noninteractive",
                "/bin/bash",
                "-c",
                wrapped,
            ],
            capture_output=True,
            text=True,
        )
        if result.returncode:
            print(result.stdout[-4000:], result.stderr[-4000:], sep="\n")
            raise SystemExit(f"FAILED at step {title!r} (exit {result.returncode})")
        self.cwd = (self.root / "run/drill-cwd").read_text().strip()
        return result.stdout

    def step(self, title: str, script: str, *, stand_in: str = "") -> str:
        began = time.monotonic()
        out = self.run(script, title) if script else ""
        note = f"  [stand-in: {stand_in}]" if stand_in else ""
        print(f"{time.monotonic() - began:7.1f} s  {title}{note}", flush=True)
        return out

    def file(self, path: str, text: str, mode: int = 0o644) -> None:
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        target.chmod(mode)


def adapt(title: str, script: str) -> tuple[str, str]:
    """The README's step as the drill runs it, and what was stood in for (printed)."""
    notes = []
    if CLONE_URL in script:
        script = script.replace(CLONE_URL, "/src/kaiser-league")
        notes.append("clone of this checkout")
    if "createsuperuser" in script:
        script = script.replace(
            "createsuperuser",
            "createsuperuser --noinput --username admin --email admin@localhost",
        )
        script = "export DJANGO_SUPERUSER_PASSWORD=drill-admin-pass-2026\n" + script
        notes.append("password given instead of typed")
    if "/etc/caddy/Caddyfile" in script:
        script = script.replace(
            "cp deploy/Caddyfile /etc/caddy/Caddyfile",
            f"sed 's/{DOMAIN}/localhost/' deploy/Caddyfile > /etc/caddy/Caddyfile",
        )
        notes.append("domain localhost")
    return script, ", ".join(notes)


def env_edit(secret: str) -> str:
    """Step 5's "Edit /etc/kaiser-league/kaiser.env", as a volunteer would."""
    return "\n".join(
        [
            f"sed -i 's|^SECRET_KEY=.*|SECRET_KEY={secret}|' /etc/kaiser-league/kaiser.env",
            f"sed -i 's|{DOMAIN}|localhost|g' /etc/kaiser-league/kaiser.env",
            f"sed -i 's|127.0.0.1:5432|127.0.0.1:{DB_PORT}|' /etc/kaiser-league/kaiser.env",
            f"sed -i 's|127.0.0.1:6379|127.0.0.1:{REDIS_PORT}|g' /etc/kaiser-league/kaiser.env",
            "sed -i 's|^EMAIL_BACKEND=.*|EMAIL_BACKEND="
            "django.core.mail.backends.console.EmailBackend|' /etc/kaiser-league/kaiser.env",
        ]
    )


def healthy(url: str, deep: bool, timeout: float) -> dict:
    import ssl

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, context=context, timeout=5) as answer:
                body = json.loads(answer.read())
                if not deep or body.get("worker") == "ok":
                    return body
                last = body
        except Exception as exc:  # any failure is retried until the deadline
            last = exc
        time.sleep(2)
    raise SystemExit(f"FAILED: {url} did not answer healthy within {timeout} s: {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default="/var/tmp/kaiser-drill", type=Path)
    parser.add_argument("--keep", action="store_true", help="leave the root for a look")
    parser.add_argument(
        "--fresh", action="store_true", help="debootstrap even if a bare root is kept"
    )
    args = parser.parse_args()
    root: Path = args.root
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        raise SystemExit("run as root on a Debian host with debootstrap installed")
    steps = readme_steps(README.read_text())
    drill = Drill(root)
    teardown(root)
    shutil.rmtree(root, ignore_errors=True)
    began = time.monotonic()
    # A bare root kept from an earlier drill is the same bare Debian, minutes sooner.
    bare = Path("/var/cache/kaiser-drill/bookworm-minbase.tar")
    if bare.exists() and not args.fresh:
        root.mkdir(parents=True)
        drill.host("tar", "-xpf", str(bare), "-C", str(root))
    else:
        drill.host(
            "debootstrap",
            "--variant=minbase",
            "bookworm",
            str(root),
            "http://deb.debian.org/debian",
        )
        bare.parent.mkdir(parents=True, exist_ok=True)
        drill.host("tar", "-cpf", str(bare), "-C", str(root), ".")
    print(f"{time.monotonic() - began:7.1f} s  0. a bare Debian 12 (debootstrap minbase)")
    try:
        for mount in MOUNTS:
            drill.host("mount", "--bind", f"/{mount}", str(root / mount))
        shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
        shutil.copy("/etc/hosts", root / "etc/hosts")
        # This machine reaches the package registries through a TLS-inspecting proxy: pip in
        # the root trusts what the host trusts (a real server needs none of this).
        shutil.copy("/etc/ssl/certs/ca-certificates.crt", root / "etc/host-ca.crt")
        drill.file("/etc/pip.conf", "[global]\ncert = /etc/host-ca.crt\n")
        # The usual chroot guard: packages do not start services (the stand-in does).
        drill.file("/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n", 0o755)
        drill.file("/usr/local/bin/systemctl", SYSTEMCTL, 0o755)
        subprocess.run(
            ["git", "clone", "--quiet", str(REPO), str(root / "src/kaiser-league")], check=True
        )
        count = 0
        for title, script in steps:
            count += 1
            script, notes = adapt(title, script)
            if title.startswith("5."):
                secret = subprocess.run(
                    [sys.executable, "-c", "import secrets;print(secrets.token_urlsafe(50))"],
                    capture_output=True,
                    text=True,
                ).stdout.strip()
                script += "\n" + env_edit(secret)
                notes = "the edits the step describes"
            if title.startswith("6."):
                # Services the packages of step 1 start on a real machine.
                script = (
                    f"sed -i 's/^port .*/port {REDIS_PORT}/' /etc/redis/redis.conf\n"
                    "systemctl start redis-server\n" + script
                )
                notes = f"Redis started on port {REDIS_PORT}"
            if title.startswith("3."):
                script = (
                    f"sed -i 's/^port = .*/port = {DB_PORT}/'"
                    " /etc/postgresql/15/main/postgresql.conf\n"
                    "pg_ctlcluster 15 main start\n" + script
                )
                notes = f"PostgreSQL started on port {DB_PORT}"
            if title.startswith("8."):
                script = "systemctl start caddy\n" + script
            drill.step(title, script, stand_in=notes)
            if title.startswith("7."):
                body = healthy("http://127.0.0.1:8000/healthz", deep=False, timeout=60)
                print(f"          /healthz: {body}")
        body = healthy("https://localhost/healthz?deep=1", deep=True, timeout=120)
        print(f"          https://localhost/healthz?deep=1: {body}")
        drill.step("check: a club on the server", "deploy/manage.sh demo_club")
        out = drill.step("check: the restore drill", "deploy/manage.sh backup_drill --write")
        if "FAIL" in out or "OK" not in out:
            raise SystemExit(f"FAILED: backup_drill said:\n{out}")
        print(out.strip())
        total = time.monotonic() - drill.started
        print(f"DONE: {count} README steps, {total:.0f} s from a bare Debian to a healthy server")
    finally:
        teardown(root)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def teardown(root: Path) -> None:
    """Stop every process whose root is the drill's, then unmount what was bound."""
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if os.readlink(proc / "root") == str(root):
                    os.kill(int(proc.name), signal.SIGKILL)
            except OSError:
                continue
    time.sleep(1)
    for mount in reversed(MOUNTS):
        subprocess.run(["umount", "-l", str(root / mount)], capture_output=True)


if __name__ == "__main__":
    main()
