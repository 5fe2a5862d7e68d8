"""Images build once, and with the same commands the rehearsal runs: deploy/build is the one place they live."""

from __future__ import annotations

import re
from pathlib import Path

from rehearsal import BUILD_STEPS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
REHEARSAL = (DEPLOY / "rehearsal.py").read_text()


def dockerfile_runs() -> list[str]:
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.split(None, 1)[1].strip() for line in text.splitlines() if line.startswith("RUN ")]


def test_the_dockerfile_and_the_rehearsal_run_the_same_build_steps_in_the_same_order() -> None:
    builds = [run for run in dockerfile_runs() if run.startswith("deploy/build")]
    assert builds == [f"deploy/build {step} /opt/casino" for step in BUILD_STEPS]
    assert BUILD_STEPS == ("venv", "app")
    assert 'for build_step in BUILD_STEPS:\n            build_argv = ["deploy/build", build_step' in REHEARSAL


def test_the_build_installs_compiled_requirements_collects_static_files_and_compiles_the_project() -> None:
    build = (DEPLOY / "build").read_text()
    venv_step = build[build.index("venv)") : build.index(";;")]
    app_step = build[build.index("app)") :]
    assert "uv pip install" in venv_step
    assert "--compile-bytecode -r requirements.txt" in venv_step
    assert "manage.py collectstatic --noinput" in app_step
    assert f"compileall -q -j0 {' '.join(project_code())}" in app_step


def project_code() -> list[str]:
    """What the Makefile compiles at install (PROJECT_CODE)."""
    makefile = (ROOT / "Makefile").read_text()
    found = re.search(r"^PROJECT_CODE := (.+)$", makefile, re.M)
    assert found, "the Makefile names the project code it compiles"
    return found.group(1).split()


def test_the_makefile_compiles_every_app_of_the_project() -> None:
    makefile = (ROOT / "Makefile").read_text()
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")} | {"casino"}
    assert set(project_code()) == apps | {"manage.py"}  # a new app is compiled at install, or starts slowly
    assert makefile.count("--compile-bytecode") == 2  # venv and dev-venv


def test_the_image_runs_as_an_unprivileged_user_and_checks_its_health() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM \S+ AS (\w+)", text, flags=re.MULTILINE)
    assert stages == ["build", "nginx", "app"]
    app = text[text.index("AS app") :]
    assert "USER casino" in app
    assert "HEALTHCHECK" in app
    assert "pip install" not in app
    assert "collectstatic" not in app
