"""The README a newcomer follows: every command in it exists and runs, every link leads
somewhere, every table renders, and it stays a guide (at most 250 lines).

Each command of a fenced `sh` block is checked by its kind:

- `make X`: X is a target of the Makefile and `make -n X` succeeds;
- `manage.py X ...`: X is a management command and accepts the arguments shown;
- `python -m config.launcher C ...`: C is a launcher command; for `exec`, the program is the
  venv's and runs (`--help`);
- `curl ...`: the path resolves in the URLconf, and the calls, run in order through the test
  client with the README's key and ids, answer the status the README shows (`# 201`);
- `docker compose ... SERVICE`: the services exist in docker-compose.yml;
- `NAME=value`: a shell variable the later commands use;
- anything else: KNOWN_ELSEWHERE must name the test that runs it, or this test fails.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command, get_commands, load_command_class
from django.urls import Resolver404, resolve
from rest_framework.test import APIClient

from assets.ingestion import asset_process
from config import launcher
from legal_documents.models import LegalDocument
from legal_documents.services.documents import run_generation
from tests.deploy.conftest import ROOT

README = ROOT / "README.md"
MAX_LINES = 250
SHELL_FENCE = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)
ANY_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
MAKE_TARGET = re.compile(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", re.MULTILINE)
TABLE_SEPARATOR = re.compile(r"\|(\s*:?-{3,}:?\s*\|)+")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# Commands of another kind, and the test that runs them (none today: add one with its test).
KNOWN_ELSEWHERE: dict[str, str] = {}
# The uploaded file of the README's `-F file=@policy.pdf`: a real PDF of the test corpus.
SAMPLE_PDF = ROOT / "tests" / "fixtures" / "corpus" / "pdf" / "pdflatex-4-pages.pdf"


@dataclass(frozen=True)
class Command:
    words: list[str]
    comment: str
    text: str

    @property
    def program(self) -> list[str]:
        """The words after any leading `NAME=value` assignments."""
        index = 0
        while index < len(self.words) and ASSIGNMENT.match(self.words[index]):
            index += 1
        return self.words[index:]


def trailing_comment(text: str) -> str:
    """What follows the first `#` outside quotes that starts a word (as the shell reads it)."""
    quote = ""
    for position, character in enumerate(text):
        if quote:
            quote = "" if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character == "#" and (position == 0 or text[position - 1].isspace()):
            return text[position + 1 :].strip()
    return ""


def fenced_commands(markdown: str) -> Iterator[Command]:
    """Each command of the shell blocks; one spanning lines (an open quote, `\\`) is one."""
    for block in SHELL_FENCE.findall(markdown):
        pending = ""
        for line in block.splitlines():
            pending = f"{pending}\n{line}" if pending else line
            if pending.rstrip().endswith("\\"):
                continue
            try:
                words = shlex.split(pending, comments=True)
            except ValueError:  # a quote still open: the command goes on
                continue
            if words:
                yield Command(words=words, comment=trailing_comment(pending), text=pending)
            pending = ""
        assert not pending, f"unterminated command in README: {pending!r}"


def kind_of(command: Command) -> str:
    program = command.program
    if not program:
        return "assignment"
    first = Path(program[0]).name
    if first == "make":
        return "make"
    if first.startswith("python") and program[1:2] == ["manage.py"]:
        return "manage"
    if first.startswith("python") and program[1:3] == ["-m", "config.launcher"]:
        return "launcher"
    if first == "curl":
        return "curl"
    if first == "docker" and program[1:2] == ["compose"]:
        return "compose"
    return "elsewhere"


def readme_commands() -> list[Command]:
    return list(fenced_commands(README.read_text(encoding="utf-8")))


def commands_of(kind: str) -> list[Command]:
    return [command for command in readme_commands() if kind_of(command) == kind]


# --- the shape of the README ----------------------------------------------------------------


def test_the_readme_is_a_guide_of_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; move details to docs/"


def tables_broken_in(markdown: str) -> list[str]:
    """Runs of table rows that do not start with a header and its separator row.

    A blank line inside a table ends it: the rows after it are a run of their own without
    a separator, which Markdown shows as raw text.
    """
    broken, run = [], []
    for line in [*ANY_FENCE.sub("", markdown).splitlines(), ""]:
        if line.startswith("|"):
            run.append(line)
            continue
        if run and not (len(run) >= 2 and TABLE_SEPARATOR.fullmatch(run[1].strip())):
            broken.append(run[0][:80])
        run = []
    return broken


def test_a_table_cut_by_a_blank_line_is_found():
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n| 5 | 6 |\n"
    assert tables_broken_in(table) == ["| 3 | 4 |"]
    assert tables_broken_in(table.replace("\n\n", "\n")) == []


@pytest.mark.parametrize(
    "page",
    [README, *sorted((ROOT / "docs").glob("*.md"))],
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_every_table_renders(page):
    assert tables_broken_in(page.read_text(encoding="utf-8")) == []


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors_of(page: Path) -> set[str]:
    text = ANY_FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(match) for match in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


@pytest.mark.parametrize(
    "page", [README, ROOT / "docs" / "README.md"], ids=["README.md", "docs/README.md"]
)
def test_every_relative_link_leads_to_a_file_and_heading(page):
    broken = []
    for target in LINK.findall(ANY_FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            broken.append(target)
            continue
        if anchor and destination.suffix == ".md" and anchor not in anchors_of(destination):
            broken.append(target)
    assert broken == []


def test_the_readme_pictures_are_committed_and_small():
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README.read_text(encoding="utf-8"))
    assert 3 <= len(pictures) <= 4
    for picture in pictures:
        assert (ROOT / picture).stat().st_size < 200_000, picture


# --- every command --------------------------------------------------------------------------


def test_every_fenced_command_is_of_a_kind_this_test_runs():
    unknown = [
        command.text
        for command in readme_commands()
        if kind_of(command) == "elsewhere"
        and not any(command.text.startswith(prefix) for prefix in KNOWN_ELSEWHERE)
    ]
    assert unknown == [], "add a check here, or name the test that runs it in KNOWN_ELSEWHERE"
    for test_file in KNOWN_ELSEWHERE.values():
        assert (ROOT / test_file).exists(), test_file


def test_the_readme_shows_the_commands_a_newcomer_needs():
    targets = {target for command in commands_of("make") for target in command.program[1:]}
    assert {"run", "test", "test-fast", "lint"} <= targets
    assert commands_of("curl"), "the API tour"


def makefile_targets() -> set[str]:
    return set(MAKE_TARGET.findall((ROOT / "Makefile").read_text()))


@pytest.mark.parametrize("command", commands_of("make"), ids=lambda command: command.text)
def test_each_make_command_is_a_target_that_make_accepts(command):
    targets = command.program[1:]
    assert targets and set(targets) <= makefile_targets(), command.text
    dry_run = subprocess.run(
        ["make", "-n", *targets], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert dry_run.returncode == 0, dry_run.stderr


def check_management_command(words: list[str]) -> None:
    name, arguments = words[0], words[1:]
    commands = get_commands()
    assert name in commands, f"no management command {name!r}"
    command = load_command_class(commands[name], name)
    parser = command.create_parser("manage.py", name)
    try:
        parser.parse_args(arguments)
    except CommandError as error:  # Django's parser raises it when not on a command line
        raise AssertionError(f"manage.py {' '.join(words)}: {error}") from None


@pytest.mark.parametrize("command", commands_of("manage"), ids=lambda command: command.text)
def test_each_manage_py_command_exists_and_takes_its_arguments(command):
    check_management_command(command.program[2:])


@pytest.mark.parametrize("command", commands_of("launcher"), ids=lambda command: command.text)
def test_each_launcher_command_exists_and_its_program_runs(command):
    subcommand, *rest = command.program[3:]
    assert subcommand in launcher.COMMANDS, command.text
    if subcommand != "exec":
        return
    # `exec` runs the program of the interpreter's venv (config/launcher.py puts its bin
    # first on PATH); the README's arguments must be ones the program accepts.
    program = Path(sys.executable).parent / rest[0]
    assert program.exists(), program
    result = subprocess.run(
        [str(program), *rest[1:], "--help"], cwd=ROOT, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_each_docker_compose_command_names_services_of_the_compose_file(services):
    # None in the README today (compose is docs/DEPLOY.md's); one added must name real services.
    for command in commands_of("compose"):
        named = [word for word in command.program[3:] if not word.startswith("-")]
        assert set(named) <= set(services), command.text


def test_the_variables_the_commands_use_are_set_before():
    assigned: set[str] = set()
    for command in readme_commands():
        used = set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", command.text))
        assert used <= assigned, f"{command.text}: {sorted(used - assigned)} not set above"
        assigned |= {word.split("=", 1)[0] for word in command.words if ASSIGNMENT.match(word)}


# --- the API tour, run ----------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: str | None
    upload: str | None
    status: int
    text: str


def parse_curl(command: Command, variables: dict[str, str]) -> Call:
    words = [expand(word, variables) for word in command.program[1:]]
    headers, body, upload, url = {}, None, None, None
    iterator = iter(words)
    for word in iterator:
        if word == "-H":
            name, _, value = next(iterator).partition(":")
            headers[name.strip()] = value.strip()
        elif word in {"-d", "--data"}:
            body = next(iterator)
        elif word == "-F":
            field, _, value = next(iterator).partition("=@")
            assert field == "file", command.text
            upload = value
        elif word.startswith("http"):
            url = word
        else:
            assert word.startswith("-") and word in {"-s", "-OJ", "-O", "-J"}, word
    assert url, command.text
    status = re.match(r"(\d{3})\b", command.comment)
    assert status, f"say the status a call answers as `# 201` after it: {command.text}"
    parts = urlsplit(url)
    return Call(
        method="POST" if body is not None or upload else "GET",
        path=parts.path, query=dict(parse_qsl(parts.query)), headers=headers, body=body,
        upload=upload, status=int(status.group(1)), text=command.text,
    )  # fmt: skip


def expand(word: str, variables: dict[str, str]) -> str:
    return re.sub(
        r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda match: variables[match.group(1)], word
    )


def test_each_curl_path_is_a_route_of_the_service():
    for command in commands_of("curl"):
        path = urlsplit(next(word for word in command.program if word.startswith("http"))).path
        path = re.sub(r"\$\{?ID\}?", "00000000-0000-0000-0000-000000000000", path)
        try:
            resolve(path)
        except Resolver404:
            raise AssertionError(f"no route for {path} ({command.text})") from None


@pytest.mark.django_db
def test_the_api_tour_answers_as_the_readme_shows(settings, capsys):
    settings.RATE_LIMIT_WRITES = "1000/min"
    # The key comes the README's way: the demo data of `make run`, then create_api_key.
    call_command("bootstrap_demo")
    [recovery] = [c for c in commands_of("manage") if c.program[2] == "create_api_key"]
    capsys.readouterr()
    call_command(*recovery.program[2:])
    variables = {"KEY": capsys.readouterr().out.strip().splitlines()[-1]}
    client = APIClient()
    for command in readme_commands():
        if kind_of(command) == "assignment":
            for word in command.words:
                name, _, value = word.partition("=")
                if name not in variables or name == "H":  # KEY and ID are the real ones
                    variables[name] = expand(value, variables)
            continue
        if kind_of(command) != "curl":
            continue
        call = parse_curl(command, variables)
        response = send(client, call)
        assert response.status_code == call.status, (call.text, response.content[:500])
        if call.path.endswith("/legal-documents") and call.method == "POST":
            variables["ID"] = response.json()["id"]
            # What the worker does while the README says "poll until completed".
            document = LegalDocument.objects.get(pk=variables["ID"])
            run_generation(document_id=str(document.pk), job_id=str(document.job_id))
        if call.upload:
            asset_process(asset_id=response.json()["id"])


def send(client: APIClient, call: Call):  # type: ignore[no-untyped-def]
    extra = {"HTTP_AUTHORIZATION": call.headers["Authorization"]}
    if call.upload:
        upload = SimpleUploadedFile(call.upload, SAMPLE_PDF.read_bytes(), "application/pdf")
        return client.post(call.path, {"file": upload}, format="multipart", **extra)
    if call.body is not None:
        content_type = call.headers.get("Content-Type", "application/json")
        return client.post(call.path, call.body, content_type=content_type, **extra)
    return client.get(call.path, call.query, **extra)
