"""Production rehearsal (deploy/rehearse): the product built and started exactly as deploy/ says, then used over HTTPS.

1. Copy the checkout to a run directory (its `/opt/casino`) and build it there with deploy/build, as the image does.
2. Read every systemd unit: run the web unit's ExecStartPre lines, then every ExecStart, as an unprivileged user,
   with the env file made from deploy/env.example (DEBUG=false, this run's database, Redis key prefix and ports).
3. Start nginx with deploy/nginx.conf (this run's ports, throw-away certificate and directories substituted).
4. Over HTTPS through nginx: /healthz; a dealer signs in on the tablet and plays a Triple Draw round to settled
   through the settlement worker (API with the session cookie and X-CSRFToken); compliance reads the round in the
   event list; a hashed static file comes from nginx; security headers and cookie flags; http redirects to https.
5. Stop everything it started and drop the database, Redis keys and run directory, whether it passed or not.

Environment: REHEARSE_DATABASE_URL (a PostgreSQL server, default postgres://postgres@127.0.0.1:5432/postgres; a
database of the run's own is created and dropped), REHEARSE_REDIS_URL (default redis://127.0.0.1:6379/0; keys under
a prefix of the run's own), REHEARSE_PORTS (a range to take free ports from, default 8400-8449).
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rehearsal_client import (
    Browser,
    check_compliance,
    check_cookies,
    check_health,
    check_plain_http_redirects,
    check_security_headers,
    check_static,
    play_round,
)
from rehearsal_files import (
    ENV_FILE,
    SERVER_NAME,
    RehearsalError,
    Unit,
    env_from_example,
    installed,
    nginx_main,
    nginx_site,
    read_units,
    render_env_file,
)
from rehearsal_run import REDIS_URL, Run, step, tail

ROOT = Path(__file__).resolve().parents[1]
# The release is built by these deploy/build steps, in this order: the Dockerfile's RUN lines are the same.
BUILD_STEPS = ("venv", "app")
# Demo logins (seed_demo --force): the rehearsal database is thrown away with them.
DEALER = ("dealer", "dealer-demo-pw")
COMPLIANCE = ("compliance", "compliance-demo-pw")


# What the rehearsal needs from Debian: nginx, openssl for the certificate, venv for the release's interpreter.
DEBIAN_PACKAGES = ("nginx", "openssl", "python3-venv")


def debian_installed(package: str) -> bool:
    query = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True, check=False)
    return query.stdout.endswith("installed")


def install_debian_packages() -> None:
    """Debian's nginx (and friends), without letting the package start a server of its own on port 80."""
    missing = [package for package in DEBIAN_PACKAGES if not debian_installed(package)]
    if not missing:
        return
    step(f"installing {' '.join(missing)} from Debian")
    guard = Path("/usr/sbin/policy-rc.d")
    added = not guard.exists()
    if added:
        guard.write_text("#!/bin/sh\nexit 101\n")
        guard.chmod(0o755)
    try:
        env = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, stdout=subprocess.DEVNULL)
    finally:
        if added:
            guard.unlink()


def project_files() -> list[str]:
    """The checkout's files as a release would ship them (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


@contextmanager
def timed(message: str) -> Iterator[None]:
    began = time.monotonic()
    step(message)
    yield
    print(f"   ({time.monotonic() - began:.1f} s)", flush=True)


def make_certificate(directory: Path) -> ssl.SSLContext:
    """A throw-away self-signed certificate for SERVER_NAME; the client trusts exactly it."""
    directory.mkdir(mode=0o700)
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={SERVER_NAME}",
            "-addext", f"subjectAltName=DNS:{SERVER_NAME}",
            "-keyout", str(directory / "privkey.pem"), "-out", str(directory / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return ssl.create_default_context(cafile=str(directory / "fullchain.pem"))


def copy_release(run: Run) -> None:
    for name in project_files():
        target = run.app / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    if run.deploy_dir is not None:  # rehearse other deploy files (tests break them on purpose)
        shutil.rmtree(run.app / "deploy")
        shutil.copytree(run.deploy_dir, run.app / "deploy")


# How this machine reaches the package registries (certificates, proxies, index settings): a build passes them on.
_REGISTRY_ACCESS = ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NO_PROXY", "no_proxy")


def build_env() -> dict[str, str]:
    """What an image build has: a clean environment (plus registry access), our bytecode rule, this interpreter."""
    access = {
        key: value
        for key, value in os.environ.items()
        if key in _REGISTRY_ACCESS or key.startswith(("PIP_", "UV_")) or key.lower() in {"http_proxy", "https_proxy"}
    }
    return access | {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHON": release_python(),
        "LANG": "C.UTF-8",
    }


def release_python() -> str:
    """The interpreter the release's virtualenv is made from: the system's (the service user must be able to run
    it; an interpreter under root's home, such as pyenv's, is not reachable for it), else this one."""
    system = Path("/usr/bin/python3")
    return str(system) if system.exists() else sys.executable


def service_env(run: Run) -> dict[str, str]:
    """systemd's view: a bare environment plus the EnvironmentFile, written from env.example for this run."""
    env = env_from_example(
        run.app / "deploy" / "env.example",
        {
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": SERVER_NAME,
            "CSRF_TRUSTED_ORIGINS": f"https://{SERVER_NAME}",
            "DATABASE_URL": run.database_url(),
            "REDIS_URL": REDIS_URL,
            "CELERY_KEY_PREFIX": run.key_prefix,
            "CASINO_CACHE_DIR": str(run.dir / "cache"),
            "GUNICORN_BIND": f"127.0.0.1:{run.web_port}",
            "GUNICORN_WORKERS": "2",
        },
    )
    (run.dir / "env").write_text(render_env_file(env))
    home = run.dir / "home"
    for directory in (run.dir / "cache", home):
        directory.mkdir()
        if run.user is not None:
            os.chown(directory, run.user.pw_uid, run.user.pw_gid)
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(home)} | env


def prepare_nginx(run: Run, certs: Path) -> list[str]:
    prefix = run.dir / "nginx"
    prefix.mkdir()
    site = prefix / "site.conf"
    site.write_text(
        nginx_site(
            (run.app / "deploy" / "nginx.conf").read_text(),
            https_port=run.https_port,
            http_port=run.http_port,
            web_port=run.web_port,
            app_dir=run.app,
            cert_dir=certs,
        )
    )
    user = None if run.user is None else f"{run.user.pw_name} {grp.getgrgid(run.user.pw_gid).gr_name}"
    (prefix / "nginx.conf").write_text(nginx_main(site, prefix, user))
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / kind).mkdir()
        if run.user is not None:
            os.chown(prefix / kind, run.user.pw_uid, run.user.pw_gid)
    argv = [shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    test = subprocess.run([*argv, "-t", "-q"], capture_output=True, text=True, check=False)
    if test.returncode != 0:
        raise RehearsalError(f"nginx rejects deploy/nginx.conf:\n{test.stderr}")
    return [*argv, "-g", "daemon off;"]


def check_workers(run: Run, units: list[Unit], env: dict[str, str]) -> None:
    """Every worker unit's node answers and consumes its queues, and every queue of casino.queues has a worker."""
    expected = {f"{unit.node_name}@{socket.gethostname()}": set(unit.queues) for unit in units if unit.node_name}
    code = (
        "import json, time\nfrom casino.celery import app\nfrom casino.queues import ALL_QUEUES\n"
        "found = {}\nfor _ in range(30):\n"
        "    found = app.control.inspect(timeout=2).active_queues() or {}\n"
        f"    if len(found) >= {len(expected)}:\n        break\n    time.sleep(1)\n"
        "print(json.dumps({'nodes': {n: sorted(q['name'] for q in qs) for n, qs in found.items()},"
        " 'all': list(ALL_QUEUES)}))\n"
    )
    done = subprocess.run(
        [str(run.app / ".venv/bin/python"), "-c", code],
        cwd=run.app,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        **run.as_service_user(),
    )
    if done.returncode != 0:
        raise RehearsalError(f"cannot ask the workers for their queues: {done.stderr[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    nodes = {node: set(queues) for node, queues in report["nodes"].items()}
    for node, queues in expected.items():
        if nodes.get(node) != queues:
            consumed = sorted(nodes.get(node, []))
            raise RehearsalError(f"worker {node} consumes {consumed}, its unit says {sorted(queues)}")
    unserved = set(report["all"]) - set().union(*nodes.values())
    if unserved:
        raise RehearsalError(f"no worker unit consumes the queue(s) {sorted(unserved)}")


def rehearse(run: Run) -> None:
    with timed(f"release copied to {run.app}; deploy files read"):
        copy_release(run)
        units = read_units(run.app / "deploy")
        certs = run.dir / "tls"
        context = make_certificate(certs)
        nginx = prepare_nginx(run, certs)
    with timed("deploy/build venv && deploy/build app (the Dockerfile's RUN steps)"):
        for build_step in BUILD_STEPS:
            build_argv = ["deploy/build", build_step, str(run.app)]
            run.run(f"build-{build_step}", build_argv, build_env(), as_service=False, timeout=900)
    run.create_database()
    env = service_env(run)
    web = units[0]
    with timed(f"{web.name}: ExecStartPre ({len(web.exec_start_pre)} lines), then seed_demo --force"):
        for number, argv in enumerate(web.exec_start_pre, start=1):
            run.run(f"{web.name}-pre{number}", installed(argv, run.app), env)
        run.run("seed_demo", [str(run.app / ".venv/bin/python"), "manage.py", "seed_demo", "--force"], env)
    with timed(f"ExecStart of {', '.join(unit.name for unit in units)}; nginx"):
        for unit in units:
            run.start(unit.name, installed(unit.exec_start, run.app), env)
        run.start("nginx", nginx, {"PATH": env["PATH"]}, as_service=False)
        run.wait_for_web()
        run.wait_for_port(run.https_port, "nginx")
        check_workers(run, units, env)
    with timed(f"over HTTPS through nginx (https://{SERVER_NAME}:{run.https_port})"):
        dealer = Browser(run.https_port, context)
        check_health(dealer)
        check_plain_http_redirects(run.http_port)
        login_page = dealer.sign_in("/tablet/login/", *DEALER, landing="/tablet/")
        check_security_headers(login_page, "/tablet/login/")
        static = check_static(dealer, login_page)
        round_id = play_round(dealer)
        officer = Browser(run.https_port, context)
        officer.sign_in("/accounts/login/", *COMPLIANCE, landing="/")
        check_compliance(officer, round_id)
        check_cookies(dealer)
        check_cookies(officer)
        run.check_alive()
        print(f"   round {round_id} settled by the worker; compliance lists it; {static} from nginx", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deploy-dir", type=Path, help="rehearse these deploy files instead of the checkout's")
    parser.add_argument("--install-only", action="store_true", help="install what it needs from Debian and stop")
    args = parser.parse_args()
    install_debian_packages()
    if args.install_only:
        return 0
    # A stop request (CI's timeout, Ctrl-C) still runs the clean-up below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run = Run(args.deploy_dir.resolve() if args.deploy_dir else None)
    began = time.monotonic()
    try:
        rehearse(run)
    except (RehearsalError, OSError, subprocess.SubprocessError) as exc:
        print(f"REHEARSAL FAILED: {exc}", flush=True)
        for name, _, log in run.processes:
            print(f"-- last lines of {name}:\n{tail(log, 15)}", flush=True)
        return 1
    finally:
        run.close()
    print(f"== rehearsal passed in {time.monotonic() - began:.0f} s ({ENV_FILE} as built from deploy/env.example)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
